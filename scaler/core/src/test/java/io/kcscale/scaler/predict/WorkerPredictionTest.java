package io.kcscale.scaler.predict;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.input.InvalidInputException;
import org.junit.jupiter.api.Test;

class WorkerPredictionTest {

    @Test
    void workersFollowFromTheCpuOneRecordCosts() {
        // 1.5 cores at 3,000 records/s: 0.5 ms per record; 2 cores at 80% carry 3,200 records/s
        WorkersResult r = WorkerPrediction.predict(new WorkersRequest(10_000.0, 1.5, 3000.0, 2.0, null, null));
        assertEquals(0.0005, r.cpuSecondsPerRecord(), 1e-12);
        assertEquals(3200, r.recordsPerWorker(), 1e-9);
        assertEquals(4, r.workers());
        assertNull(r.tasks());
        assertNull(r.tasksPerWorker());
    }

    @Test
    void aPerTaskRateSaysHowManyTasksAWorkersCpuKeepsBusy() {
        // 70 records/s per task: 3,200 / 70 = 45 tasks per worker; 10,000 / 70 = 143 tasks, on 4 workers
        WorkersResult r = WorkerPrediction.predict(new WorkersRequest(10_000.0, 1.5, 3000.0, 2.0, 70.0, null));
        assertEquals(143, r.tasks());
        assertEquals(45, r.tasksPerWorker());
        assertEquals(4, r.workers());
        // a task faster than a worker's CPU (5,000 > 4,000 records/s) runs at 4,000 on a worker of its own:
        // 10,000 records/s take 3 such tasks, not the 2 its own rate would suggest (which reach only 8,000)
        WorkersResult fast = WorkerPrediction.predict(new WorkersRequest(10_000.0, 1.5, 3000.0, 2.0, 5000.0, 1.0));
        assertEquals(1, fast.tasksPerWorker());
        assertEquals(3, fast.tasks());
        assertEquals(3, fast.workers());
        assertTrue(
                fast.assumptions()
                        .get(3)
                        .contains("more than a worker's CPU carries: each task runs at 4,000 records/s"),
                fast.assumptions().toString());
    }

    @Test
    void anExactFitNeedsNoExtraWorker() {
        assertEquals(
                2,
                WorkerPrediction.predict(new WorkersRequest(6400.0, 1.5, 3000.0, 2.0, null, null))
                        .workers());
    }

    @Test
    void badInputsNameTheirField() {
        assertEquals(
                "cpuCores",
                assertThrows(
                                InvalidInputException.class,
                                () -> WorkerPrediction.predict(new WorkersRequest(100.0, 0.0, 3000.0, 2.0, null, null)))
                        .field());
        assertEquals(
                "utilization",
                assertThrows(
                                InvalidInputException.class,
                                () -> WorkerPrediction.predict(new WorkersRequest(100.0, 1.0, 3000.0, 2.0, null, 1.5)))
                        .field());
        assertEquals(
                "targetRate",
                assertThrows(
                                InvalidInputException.class,
                                () -> WorkerPrediction.predict(new WorkersRequest(1e300, 1.0, 1.0, 1e-300, null, null)))
                        .field());
    }

    @Test
    void workersForRoundsAPartFilledWorkerUp() {
        assertEquals(0, WorkerPrediction.workersFor(0, 4));
        assertEquals(1, WorkerPrediction.workersFor(4, 4));
        assertEquals(2, WorkerPrediction.workersFor(5, 4));
        assertEquals(Integer.MAX_VALUE, WorkerPrediction.workersFor(Integer.MAX_VALUE, 1), "no overflow");
        assertThrows(IllegalArgumentException.class, () -> WorkerPrediction.workersFor(3, 0));
    }
}
