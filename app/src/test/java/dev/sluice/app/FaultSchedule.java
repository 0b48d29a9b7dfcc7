package dev.sluice.app;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A schedule of kills for the randomized fault suite: up to {@code maxKills} (fault point, n-th
 * reach) pairs, drawn from a seed and the trace of an uninterrupted run of the same command
 * ({@code SLUICE_FAULT_TRACE}: the points it reached, in order).
 *
 * <p>The first kill is drawn among every point the trace reaches; each next one among the points
 * the trace reaches after the previous kill's place, in one of three ways: a point name uniformly
 * among those names, then one of its reaches there uniformly (so that rare points are met); a
 * reach uniformly among all of them (so that frequent points, the Bronze chunks, are met as often
 * as a random moment would meet them); or, one time in four, the previous kill's point again at
 * its first reach (the restart killed where its predecessor was: twice in a row, the case a single
 * kill cannot see). n counts the point's reaches from the previous kill's place on. A restarted
 * run redoes at least what came after the kill (the killed step again, or the rest of its Bronze
 * load), so it reaches the next pair unless the interleaving of parallel partitions differs; a
 * pair not reached ends the schedule (the run completed). The same seed and trace always give the
 * same schedule.
 *
 * @param seed the seed it was drawn from
 * @param kills the pairs, in the order the runs meet them
 */
record FaultSchedule(long seed, List<Kill> kills) {

    /** One kill: at the {@code nth} reach of {@code point} in a run's process. */
    record Kill(String point, int nth) {
        /** The value of {@code SLUICE_FAULT_PAUSE} for it. */
        String setting() {
            return point + "#" + nth;
        }
    }

    FaultSchedule {
        kills = List.copyOf(kills);
    }

    /** Draws a schedule of 1 to {@code maxKills} kills from {@code seed} over {@code trace}. */
    static FaultSchedule draw(long seed, List<String> trace, int maxKills) {
        if (trace.isEmpty()) {
            throw new IllegalArgumentException("the uninterrupted run reached no fault point");
        }
        SplittableRandom random = new SplittableRandom(seed);
        int count = 1 + random.nextInt(maxKills);
        List<Kill> kills = new ArrayList<>();
        int after = -1; // the trace index of the previous kill
        for (int k = 0; k < count && after < trace.size() - 1; k++) {
            double how = random.nextDouble();
            if (k > 0 && how < 0.25) {
                kills.add(new Kill(kills.get(k - 1).point(), 1));
                continue;
            }
            Map<String, List<Integer>> reaches = new LinkedHashMap<>();
            for (int i = after + 1; i < trace.size(); i++) {
                reaches.computeIfAbsent(trace.get(i), x -> new ArrayList<>()).add(i);
            }
            int index;
            if (how < 0.625) {
                List<String> names = new ArrayList<>(reaches.keySet());
                names.sort(null); // the draw does not depend on which point came first
                List<Integer> at = reaches.get(names.get(random.nextInt(names.size())));
                index = at.get(random.nextInt(at.size()));
            } else {
                index = after + 1 + random.nextInt(trace.size() - after - 1);
            }
            String point = trace.get(index);
            kills.add(new Kill(point, reaches.get(point).indexOf(index) + 1));
            after = index;
        }
        return new FaultSchedule(seed, kills);
    }

    @Override
    public String toString() {
        return "seed " + seed + ": " + kills.stream().map(Kill::setting).toList();
    }
}
