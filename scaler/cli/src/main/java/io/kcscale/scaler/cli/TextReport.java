package io.kcscale.scaler.cli;

import java.util.ArrayList;
import java.util.List;

/** The human-readable form of a result: a title, aligned label/value/note rows, then bulleted lists. */
final class TextReport {

    private record Row(String label, String value, String note) {}

    private final String title;
    private final List<Row> rows = new ArrayList<>();
    private final StringBuilder lists = new StringBuilder();

    TextReport(String title) {
        this.title = title;
    }

    TextReport row(String label, String value, String note) {
        rows.add(new Row(label, value, note));
        return this;
    }

    TextReport list(String heading, List<String> items) {
        if (!items.isEmpty()) {
            lists.append(heading).append(":\n");
            items.forEach(item -> lists.append("  - ").append(item).append('\n'));
        }
        return this;
    }

    @Override
    public String toString() {
        int labelWidth = rows.stream().mapToInt(r -> r.label().length()).max().orElse(0);
        int valueWidth = rows.stream().mapToInt(r -> r.value().length()).max().orElse(0);
        StringBuilder text = new StringBuilder(title).append('\n');
        for (Row row : rows) {
            String line = String.format(
                    "  %-" + labelWidth + "s  %" + valueWidth + "s  %s", row.label(), row.value(), row.note());
            text.append(line.stripTrailing()).append('\n');
        }
        return text.append(lists).toString();
    }
}
