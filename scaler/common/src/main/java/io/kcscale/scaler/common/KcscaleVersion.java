package io.kcscale.scaler.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code kcscale --version} prints, whichever JVM the script sends it to (the CLI's, the launcher's or the
 * lab's): the project's version as the build wrote it into {@code version.properties}, typed nowhere else.
 */
public final class KcscaleVersion implements IVersionProvider {

    @Override
    public String[] getVersion() throws IOException {
        Properties build = new Properties();
        try (InputStream in = KcscaleVersion.class.getResourceAsStream("version.properties")) {
            build.load(in);
        }
        return new String[] {"kcscale " + build.getProperty("version")};
    }
}
