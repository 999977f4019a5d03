package io.kcscale.scaler.cli;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.predict.Measurement;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reads (tasks, throughput) points from a CSV file: the columns named {@code tasks} and
 * {@code throughput} (or {@code sustainedRate}, {@code sustained rate}…) when the header has them,
 * else the first two numeric columns, as in an experiment's {@code results.csv}. Blank lines and
 * lines starting with {@code #} are skipped; quoted cells holding commas are not supported.
 */
final class MeasurementsCsv {

    private static final String FIELD = "measurements";
    private static final List<String> THROUGHPUT_NAMES = List.of("throughput", "sustainedrate");

    private MeasurementsCsv() {}

    static List<Measurement> read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new InvalidInputException(FIELD, "cannot read " + file + ": " + e.getMessage());
        }
    }

    static List<Measurement> parse(String content) {
        List<String[]> rows = new ArrayList<>();
        List<Integer> lineNumbers = new ArrayList<>();
        String[] lines = content.split("\\R");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (!line.isEmpty() && !line.startsWith("#")) {
                rows.add(cells(line));
                lineNumbers.add(i + 1);
            }
        }
        // a header names columns: none of its cells is a number
        boolean header = !rows.isEmpty() && Arrays.stream(rows.get(0)).noneMatch(MeasurementsCsv::isNumber);
        int first = header ? 1 : 0;
        if (rows.size() <= first) {
            throw new InvalidInputException(FIELD, "file holds no measurements");
        }
        int[] columns = header ? namedColumns(rows.get(0)) : null;
        if (columns == null) {
            columns = numericColumns(rows.subList(first, rows.size()));
        }
        List<Measurement> points = new ArrayList<>();
        for (int r = first; r < rows.size(); r++) {
            String at = "line " + lineNumbers.get(r) + ": ";
            Double tasks = number(rows.get(r), columns[0], at);
            Double throughput = number(rows.get(r), columns[1], at);
            // judged here too, so that a bad value is named by its line and column, not by its place among the points
            Inputs.count(FIELD, at + "column " + (columns[0] + 1) + " (tasks) ", tasks, 1);
            Inputs.positive(FIELD, at + "column " + (columns[1] + 1) + " (throughput) ", throughput);
            points.add(new Measurement(tasks, throughput));
        }
        return points;
    }

    private static String[] cells(String line) {
        String[] cells = line.split(",", -1);
        for (int i = 0; i < cells.length; i++) {
            cells[i] = cells[i].strip().replaceAll("^\"|\"$", "").strip();
        }
        return cells;
    }

    /** The tasks and throughput columns by name, or null when the header lacks either. */
    private static int[] namedColumns(String[] header) {
        int tasks = -1;
        int throughput = -1;
        for (int i = 0; i < header.length; i++) {
            String name = header[i].toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
            tasks = tasks < 0 && name.equals("tasks") ? i : tasks;
            throughput = throughput < 0 && THROUGHPUT_NAMES.contains(name) ? i : throughput;
        }
        return tasks < 0 || throughput < 0 ? null : new int[] {tasks, throughput};
    }

    private static int[] numericColumns(List<String[]> data) {
        int width = data.stream().mapToInt(row -> row.length).min().orElse(0);
        int[] found = new int[2];
        int count = 0;
        for (int column = 0; column < width && count < 2; column++) {
            int c = column;
            if (data.stream().allMatch(row -> isNumber(row[c]))) {
                found[count++] = column;
            }
        }
        if (count < 2) {
            throw new InvalidInputException(
                    FIELD,
                    "needs columns named tasks and throughput (or sustainedRate),"
                            + " or two numeric columns: tasks, then throughput");
        }
        return found;
    }

    private static Double number(String[] row, int column, String at) {
        if (column >= row.length || !isNumber(row[column])) {
            throw new InvalidInputException(
                    FIELD,
                    at + "column " + (column + 1) + " must be a number, got '"
                            + (column < row.length ? row[column] : "") + "'");
        }
        return new BigDecimal(row[column]).doubleValue();
    }

    private static boolean isNumber(String cell) {
        try {
            new BigDecimal(cell);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
