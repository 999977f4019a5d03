package io.kcscale.scaler.predict;

import io.kcscale.scaler.input.Inputs;
import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.input.Numbers;
import java.util.ArrayList;
import java.util.List;

/**
 * How many Connect workers a target rate needs, from the CPU one record costs them as measured: the
 * way MSK Connect sizes workers and their MCUs, but from this pipeline's own figures. Tasks share their
 * worker's cores, so past the cores' worth of records a worker carries, more tasks only queue for CPU.
 */
public final class WorkerPrediction {

    public static final double DEFAULT_UTILIZATION = 0.8;

    private WorkerPrediction() {}

    public static WorkersResult predict(WorkersRequest request) {
        double target = Inputs.positive("targetRate", request.targetRate());
        double cpu = Inputs.positive("cpuCores", request.cpuCores());
        double measured = Inputs.positive("measuredRate", request.measuredRate());
        double cores = Inputs.positive("coresPerWorker", request.coresPerWorker());
        double utilization = Inputs.utilization("utilization", request.utilization(), DEFAULT_UTILIZATION);
        Double perTask = request.perTaskRate() == null ? null : Inputs.positive("perTaskRate", request.perTaskRate());

        // said in milliseconds, so the milliseconds must be finite too
        double perRecord = Inputs.finite(
                        cpu / measured * 1000,
                        "cpuCores",
                        "/ {0} is above " + Inputs.LARGEST + " CPU-milliseconds per record" + Inputs.LARGEST_IS
                                + ": check the measurement",
                        "measuredRate")
                / 1000;
        double perWorker = cores * utilization / perRecord;
        if (!(perWorker > 0) || !Double.isFinite(perWorker)) {
            throw new InvalidInputException(
                    "coresPerWorker",
                    "with {0} and {1} gives no finite rate per worker: check the" + " measurement",
                    "cpuCores",
                    "measuredRate");
        }
        int workers = whole("targetRate", Math.ceil(target / perWorker * (1 - ScalingModel.TOLERANCE)), "workers");
        Integer tasks = null;
        Integer tasksPerWorker = null;
        List<String> assumptions = new ArrayList<>(List.of(
                "one record costs the workers " + Numbers.format(perRecord * 1000, 4) + " ms of CPU, as measured ("
                        + Numbers.format(cpu) + " cores at " + Numbers.format(measured)
                        + " records/s), whatever the rate",
                "each worker's " + Numbers.format(cores) + " cores carry " + Numbers.format(perWorker)
                        + " records/s at " + Numbers.format(utilization * 100)
                        + "% busy: headroom for rebalances and bursts",
                "the CPU counted is the workers' processes only: Kafka and Elasticsearch need cores of their own"));
        if (perTask != null) {
            // a task runs on one worker: one faster than a worker's CPU carries does only what that CPU allows
            double perTaskHere = Math.min(perTask, perWorker);
            tasks = whole("targetRate", Math.ceil(target / perTaskHere * (1 - ScalingModel.TOLERANCE)), "tasks");
            tasksPerWorker = Math.max(1, (int) Math.min(Integer.MAX_VALUE, Math.floor(perWorker / perTask)));
            workers = Math.max(workers, workersFor(tasks, tasksPerWorker));
            assumptions.add(
                    perTask > perWorker
                            ? "one task does " + Numbers.format(perTask)
                                    + " records/s, more than a worker's CPU carries: each task" + " runs at "
                                    + Numbers.format(perWorker) + " records/s on a worker of its own"
                            : "one task does " + Numbers.format(perTask) + " records/s, so a worker's CPU keeps "
                                    + tasksPerWorker + " task(s) busy");
        }
        return new WorkersResult(
                target,
                perRecord,
                cores,
                utilization,
                perWorker,
                workers,
                tasks,
                tasksPerWorker,
                List.copyOf(assumptions),
                List.of(
                        "add workers, not tasks, when the workers' CPU is spent: the"
                                + " worker-capacity check says when it is; Connect balances tasks over the workers of a group"));
    }

    /**
     * The workers {@code tasks} need at {@code tasksPerWorker} each (rounded up: a part-filled worker is a worker);
     * the autoscaler's recommendation counts its workers so too.
     */
    public static int workersFor(int tasks, int tasksPerWorker) {
        if (tasks < 0 || tasksPerWorker < 1) {
            throw new IllegalArgumentException(tasks + " tasks at " + tasksPerWorker + " per worker");
        }
        return (int) (((long) tasks + tasksPerWorker - 1) / tasksPerWorker);
    }

    private static int whole(String field, double count, String what) {
        if (count > Integer.MAX_VALUE) {
            throw new InvalidInputException(
                    field, "needs more than " + Numbers.format(Integer.MAX_VALUE) + " " + what + ": lower it");
        }
        return Math.max(1, (int) count);
    }
}
