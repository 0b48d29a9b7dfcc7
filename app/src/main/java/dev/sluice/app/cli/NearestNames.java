package dev.sluice.app.cli;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * The known names nearest to a name the user typed, for "did you mean" in messages: those at the
 * smallest Levenshtein edit distance (case-insensitive), if it is at most a third of the name's
 * length (at least 2). Stateless and thread-safe.
 */
final class NearestNames {

    /** The most names a suggestion lists. */
    static final int MOST = 3;

    private NearestNames() {
    }

    /** Up to {@value #MOST} of {@code known} nearest to {@code name} (all at the same distance), by name; may be empty. */
    static List<String> of(String name, Collection<String> known) {
        String typed = name.toLowerCase(Locale.ROOT);
        int limit = Math.max(2, typed.length() / 3);
        LevenshteinDistance distance = new LevenshteinDistance(limit);
        record Scored(String name, int distance) {
        }
        List<Scored> near = known.stream().distinct()
                .map(k -> new Scored(k, distance.apply(typed, k.toLowerCase(Locale.ROOT))))
                .filter(s -> s.distance() >= 0) // -1: further than the limit
                .sorted(Comparator.comparingInt(Scored::distance).thenComparing(Scored::name)).toList();
        return near.stream().filter(s -> s.distance() == near.get(0).distance()).limit(MOST).map(Scored::name).toList();
    }

    /**
     * {@code "; did you mean X?"} (or {@code X or Y}, {@code X, Y or Z}) when some of {@code known}
     * are near {@code name}; else {@code "; known: a, b, c"} ({@code "; none is known"} when there are
     * none), for the end of a message.
     */
    static String suggestion(String name, Collection<String> known) {
        List<String> near = of(name, known);
        if (!near.isEmpty()) {
            String last = near.get(near.size() - 1);
            return "; did you mean " + (near.size() == 1 ? last : String.join(", ", near.subList(0, near.size() - 1)) + " or " + last) + "?";
        }
        return known.isEmpty() ? "; none is known" : "; known: " + String.join(", ", known.stream().sorted().distinct().toList());
    }
}
