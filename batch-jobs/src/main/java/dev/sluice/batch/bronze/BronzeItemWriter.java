package dev.sluice.batch.bronze;

import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.engine.BronzeRow;
import dev.sluice.engine.BronzeSink;

import dev.sluice.core.Partition;
import java.util.List;
import org.springframework.batch.infrastructure.item.Chunk;
import org.springframework.batch.infrastructure.item.ItemWriter;

/**
 * Writes a chunk of source rows to Bronze through the database's {@link BronzeSink} and, in the same
 * transaction, marks each file whose last row is in the chunk as LOADED and current. Not
 * thread-safe.
 */
public final class BronzeItemWriter implements ItemWriter<BronzeRow> {

    private final BronzeSink sink;
    private final LandedFileRepository landed;
    private final String bronzeTable;
    private final Partition partition;

    public BronzeItemWriter(BronzeSink sink, LandedFileRepository landed, String bronzeTable, Partition partition) {
        this.sink = sink;
        this.landed = landed;
        this.bronzeTable = bronzeTable;
        this.partition = partition;
    }

    @Override
    public void write(Chunk<? extends BronzeRow> chunk) {
        List<BronzeRow> rows = List.copyOf(chunk.getItems());
        sink.append(rows);
        for (BronzeRow r : rows) {
            if (r.completes() != null) {
                landed.finishLoad(bronzeTable, partition, r.completes());
            }
        }
    }
}
