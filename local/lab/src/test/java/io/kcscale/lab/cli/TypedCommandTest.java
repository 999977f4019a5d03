package io.kcscale.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TypedCommandTest {

    @Test
    void aVerbsCommandLineIsRecordedOnceAsTyped() {
        CommandLine root = new CommandLine(new LabCommand());
        root.parseArgs("bench", "scaler", "--window", "40");
        CommandLine scaler = root.getSubcommands().get("bench").getSubcommands().get("scaler");
        assertEquals("./kcscale bench scaler --window 40", TypedCommand.of(scaler.getCommandSpec()));
    }
}
