package io.kcscale.scaler.input;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Bad input to a prediction, naming the input by its camelCase field name. The CLI shows the field
 * as a flag ({@code --target-rate}), the REST API as the JSON field ({@code targetRate}), so the
 * problem text refers to other inputs through {@code {0}}, {@code {1}}… placeholders that each
 * front end names its own way.
 */
public final class InvalidInputException extends IllegalArgumentException {

    private final String field;
    private final String problem;
    private final List<String> related;

    public InvalidInputException(String field, String problem, String... related) {
        super(field + " " + render(problem, List.of(related), UnaryOperator.identity()));
        this.field = field;
        this.problem = problem;
        this.related = List.of(related);
    }

    public String field() {
        return field;
    }

    /** The one-line message with every input named by {@code naming}. */
    public String describe(UnaryOperator<String> naming) {
        return naming.apply(field) + " " + render(problem, related, naming);
    }

    private static String render(String problem, List<String> related, UnaryOperator<String> naming) {
        String text = problem;
        for (int i = 0; i < related.size(); i++) {
            text = text.replace("{" + i + "}", naming.apply(related.get(i)));
        }
        return text;
    }
}
