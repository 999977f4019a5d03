package io.kcscale.connectors.datagen;

/** The connector's version, from the jar manifest that the build writes. */
final class Version {

    private Version() {}

    static String current() {
        String version = Version.class.getPackage().getImplementationVersion();
        // classes run from a build directory, as in unit tests, have no manifest
        return version == null ? "unknown" : version;
    }
}
