package dev.sluice.config;

import dev.sluice.core.SluiceException;
import java.util.List;
import java.util.stream.Collectors;

/** A spec or contract that has one or more {@link SpecProblem}s; all of them are carried. */
public class SpecValidationException extends SluiceException {

    private final List<SpecProblem> problems;

    public SpecValidationException(List<SpecProblem> problems) {
        super(problems.size() + " problem(s):\n" + problems.stream()
                .map(p -> "  - " + p.describe()).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    /** Every problem found, in file order. */
    public List<SpecProblem> problems() {
        return problems;
    }
}
