package io.kcscale.scaler.checks.keys;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import java.time.Duration;

/**
 * How much of a topic the key sample may read: at most {@code records} records (spread over the
 * partitions, the newest of each) and at most {@code time} of reading.
 */
public record SampleBudget(int records, Duration time) {

    public static final int DEFAULT_RECORDS = 100_000;
    public static final double DEFAULT_SECONDS = 5;
    public static final int MAX_RECORDS = 10_000_000;
    public static final double MIN_SECONDS = 0.1;
    public static final double MAX_SECONDS = 60;

    public static final SampleBudget DEFAULT =
            new SampleBudget(DEFAULT_RECORDS, Duration.ofMillis((long) (DEFAULT_SECONDS * 1000)));

    /** Each of {@code parts} topics' share, sampled one after another: the whole still ends within this budget. */
    public SampleBudget split(int parts) {
        if (parts <= 1) {
            return this;
        }
        long millis = Math.max((long) (MIN_SECONDS * 1000), time.toMillis() / parts);
        return new SampleBudget(Math.max(1, records / parts), Duration.ofMillis(millis));
    }

    /**
     * The budget from user input (a flag or a query parameter); null means the default.
     *
     * @throws InvalidInputException naming {@code sampleRecords} or {@code sampleSeconds}
     */
    public static SampleBudget parse(String records, String seconds) {
        Double r = Inputs.parse("sampleRecords", records);
        Double s = Inputs.parse("sampleSeconds", seconds);
        double count = r == null ? DEFAULT_RECORDS : r;
        if (!(count >= 1 && count <= MAX_RECORDS && count == Math.rint(count))) {
            throw new InvalidInputException(
                    "sampleRecords", "must be a whole number from 1 to " + MAX_RECORDS + ", got " + records);
        }
        double time = s == null ? DEFAULT_SECONDS : s;
        if (!(time >= MIN_SECONDS && time <= MAX_SECONDS)) {
            throw new InvalidInputException(
                    "sampleSeconds", "must be from " + MIN_SECONDS + " to " + MAX_SECONDS + " seconds, got " + seconds);
        }
        return new SampleBudget((int) count, Duration.ofMillis(Math.round(time * 1000)));
    }
}
