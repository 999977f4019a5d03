package io.kcscale.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Bad flags are refused with a line naming the flag, before any stack starts. */
class ExperimentCommandTest {

    private static String refusal(String... args) {
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new LabCommand())
                .setOut(new PrintWriter(new StringWriter()))
                .setErr(new PrintWriter(err))
                .execute(args);
        assertEquals(2, exit, err.toString());
        return err.toString().strip();
    }

    @Test
    void badSweepFlagsAreRefusedNamingTheFlag() {
        assertEquals(
                "kcscale experiment sweep: --tasks must increase, e.g. 1,2,3,5; got '3,2'",
                refusal("experiment", "sweep", "--tasks", "3,2"));
        assertEquals(
                "kcscale experiment sweep: --tasks must be whole numbers separated by commas, e.g. 1,2,3,5; got '1,two'",
                refusal("experiment", "sweep", "--tasks", "1,two"));
        assertEquals(
                "kcscale experiment sweep: --tasks must be at least 1, got 0",
                refusal("experiment", "sweep", "--tasks", "0,1"));
        assertEquals(
                "kcscale experiment sweep: --tasks 25 is above --partitions 20: a task beyond the partition count sits idle;"
                        + " add partitions or drop it",
                refusal("experiment", "sweep", "--tasks", "1,25"));
        assertEquals(
                "kcscale experiment sweep: --partitions must be from 1 to 1000, got 0",
                refusal("experiment", "sweep", "--partitions", "0"));
        assertEquals(
                "kcscale experiment sweep: --sink-mode must be one of index, bulk, got fast",
                refusal("experiment", "sweep", "--sink-mode", "fast"));
    }

    @Test
    void badValidateFlagsAreRefusedNamingTheFlag() {
        assertEquals(
                "kcscale experiment validate: --check 2 is also a --fit point: a held-out point must not be fitted",
                refusal("experiment", "validate", "--fit", "1,2", "--check", "2,4"));
        assertEquals(
                "kcscale experiment validate: --fit must increase, e.g. 1,2,3; got '2,1'",
                refusal("experiment", "validate", "--fit", "2,1"));
        assertEquals(
                "kcscale experiment validate: --check 21 is above --partitions 20: a task beyond the partition count sits idle;"
                        + " add partitions or drop it",
                refusal("experiment", "validate", "--check", "21"));
        assertEquals(
                "kcscale experiment validate: --sink-latency-ms must be from 0 to 1000, got 1001",
                refusal("experiment", "validate", "--sink-latency-ms", "1001"));
    }

    @Test
    void anUnknownExperimentOrAMalformedSeedIsAUsageError() {
        refusal("experiment", "ramp");
        refusal("experiment", "humps", "--seed", "x");
    }
}
