package io.kcscale.lab.chaos;

/** What the scaler's chaos benchmark does to one replica of the scaler, one kind per disruption it schedules. */
public enum ScalerDisruption {
    /** SIGSTOP for longer than the lease, then SIGCONT: a long GC pause, a frozen VM. */
    FREEZE("SIGSTOP past the lease, then SIGCONT"),
    /** SIGKILL, then a start again: a crash. */
    KILL("kill -9, then start again"),
    /** SIGTERM, then a start again: a rolling update. */
    RESTART("stop, then start again"),
    /** Its proxy to Kafka drops every connection and takes none, then forwards again: a network partition. */
    CUT("cut from Kafka, then joined again");

    private final String description;

    ScalerDisruption(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
