package io.kcscale.scaler.ports;

import io.kcscale.scaler.checks.WorkerCpu;
import java.util.Collection;
import java.util.List;

/** Port: the CPU of Connect workers, by the {@code host:port} ids Connect names them by. */
public interface WorkerCpuReadings {

    /** Reads the workers named; those it cannot read are left out and said so in {@link Result#unavailable()}. */
    Result read(Collection<String> workerIds);

    /** What was read: each found worker's CPU (null when none), and why the others were not (null when all were). */
    record Result(List<WorkerCpu> workers, String unavailable) {}
}
