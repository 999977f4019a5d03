package io.kcscale.lab.experiment;

/** What the sink's tasks consumed from a backlog; {@code ranDry}: the backlog ran out inside the window, so a lower bound. */
public record FullSpeedResult(Throughput throughput, boolean ranDry) {
}
