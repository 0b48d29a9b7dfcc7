package dev.sluice.hotpath;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.HotPathSpec;
import java.util.ArrayList;
import java.util.List;
import org.jooq.DSLContext;

/**
 * Every live aggregate of a hot path ({@code hot_path.windows}, one {@link WindowStore} each, in
 * spec order): their tables, and the events they count. Thread-safe (the stores are).
 */
final class LiveWindows {

    private final List<WindowStore> windows = new ArrayList<>();

    /** @param sink the sink table, which the windows count the events of */
    LiveWindows(HotPathSpec hot, ContractSpec contract, SinkTable sink) {
        hot.windows().forEach(w -> windows.add(new WindowStore(w, contract, sink.table())));
    }

    /** Creates each window table (and its lock row) when it does not exist. */
    void create(DSLContext dsl) {
        windows.forEach(w -> w.create(dsl));
    }

    /**
     * Counts {@code counted} (events of the sink counted from now on, not before) in every window, in
     * the caller's transaction {@code tx}; nothing for an empty list.
     */
    void count(DSLContext tx, List<HotSink.Consumed> counted) {
        if (counted.isEmpty()) {
            return;
        }
        List<EventDecoder.Event> events = counted.stream().map(HotSink.Consumed::event).toList();
        for (WindowStore w : windows) {
            w.add(tx, events);
        }
    }
}
