package dev.sluice.formats;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A local file as Parquet's {@link InputFile} and {@link OutputFile}, through java.nio, so that no
 * Hadoop file system (and no {@code .crc} side files) is involved. Parquet 1.13 (the version Spark
 * 3.5 carries) has no such class of its own.
 */
public final class LocalParquetFile implements InputFile, OutputFile {

    private final Path path;

    public LocalParquetFile(Path path) {
        this.path = path;
    }

    @Override
    public long getLength() throws IOException {
        return Files.size(path);
    }

    @Override
    public SeekableInputStream newStream() throws IOException {
        SeekableByteChannel channel = Files.newByteChannel(path, StandardOpenOption.READ);
        InputStream in = Channels.newInputStream(channel);
        return new DelegatingSeekableInputStream(in) {
            @Override
            public long getPos() throws IOException {
                return channel.position();
            }

            @Override
            public void seek(long newPos) throws IOException {
                channel.position(newPos);
            }

            @Override
            public int read(ByteBuffer buf) throws IOException {
                return channel.read(buf);
            }
        };
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        return open(StandardOpenOption.CREATE_NEW);
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        return open(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private PositionOutputStream open(StandardOpenOption... options) throws IOException {
        StandardOpenOption[] all = new StandardOpenOption[options.length + 1];
        System.arraycopy(options, 0, all, 0, options.length);
        all[options.length] = StandardOpenOption.WRITE;
        OutputStream out = new BufferedOutputStream(Files.newOutputStream(path, all), 1 << 16);
        return new PositionOutputStream() {
            private long pos;

            @Override
            public long getPos() {
                return pos;
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                pos++;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                pos += len;
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        };
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return path.toString();
    }

    @Override
    public String toString() {
        return path.toString();
    }

    /** A record reader over this file yielding parquet-hadoop's example {@link Group}s. */
    public ParquetReader<Group> groupReader() throws IOException {
        return new GroupReaderBuilder(this).build();
    }

    /** parquet-hadoop's reader builder, given the example Group read support, over an {@link InputFile}. */
    private static final class GroupReaderBuilder extends ParquetReader.Builder<Group> {
        GroupReaderBuilder(InputFile file) {
            super(file);
        }

        @Override
        protected ReadSupport<Group> getReadSupport() {
            return new GroupReadSupport();
        }
    }
}
