package io.kcscale.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.local.cli.LocalCommand;
import io.kcscale.scaler.cli.KcscaleCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The script sends {@code --version} to the CLI, but the launcher's and the lab's roots answer it alike. */
class OneVersionTest {

    @Test
    void everyRootPrintsTheSameVersion() {
        String cli = version(KcscaleCommand.newCommandLine());
        assertEquals(cli, version(LocalCommand.newCommandLine()));
        assertEquals(cli, version(new CommandLine(new LabCommand())));
    }

    private static String version(CommandLine root) {
        StringWriter out = new StringWriter();
        assertEquals(0, root.setOut(new PrintWriter(out)).execute("--version"));
        return out.toString();
    }
}
