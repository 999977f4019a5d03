package io.kcscale.lab.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.kcscale.lab.simulator.Timeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

/**
 * One benchmark run on disk, in a directory of its own: its whole configuration and seed
 * ({@code config.json}), so the same seed gives the same load again; the report as JSON and as the
 * table; and each policy's timeline as CSV, to plot or to compare with another run.
 */
public final class ExperimentResults {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    private ExperimentResults() {}

    /**
     * Writes under {@code root/<timestamp>-<mode>/} and returns that directory.
     *
     * @param runs each run's timeline by the name its CSV takes
     */
    public static Path write(
            Path root,
            Map<String, Object> configuration,
            String mode,
            Object report,
            Map<String, Timeline> runs,
            String table) {
        Path dir = root.resolve(LocalDateTime.now().format(STAMP) + "-" + mode);
        try {
            Files.createDirectories(dir);
            JSON.writeValue(dir.resolve("config.json").toFile(), configuration);
            JSON.writeValue(dir.resolve("report.json").toFile(), report);
            Files.writeString(dir.resolve("report.txt"), table);
            for (Map.Entry<String, Timeline> run : runs.entrySet()) {
                Files.writeString(dir.resolve("timeline-" + run.getKey() + ".csv"), csv(run.getValue()));
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the results to " + dir, e);
        }
    }

    static String csv(Timeline run) {
        StringBuilder out = new StringBuilder(
                "atSeconds,offeredRate,appendRate,sinkRate,indexRate,lag,tasks,latencySeconds,lagSeconds\n");
        for (Timeline.Point p : run.points()) {
            out.append(String.format(
                    Locale.ROOT,
                    "%.1f,%.1f,%s,%s,%s,%d,%d,%s,%s%n",
                    p.atSeconds(),
                    p.offeredRate(),
                    orEmpty(p.appendRate()),
                    orEmpty(p.sinkRate()),
                    orEmpty(p.indexRate()),
                    p.lag(),
                    p.tasks(),
                    orEmpty(p.latencySeconds()),
                    orEmpty(p.lagSeconds())));
        }
        return out.toString();
    }

    private static String orEmpty(Double d) {
        return d == null ? "" : String.format(Locale.ROOT, "%.2f", d);
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
