package io.kcscale.scaler.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SlowWorkTest {

    @Test
    void pastItsPermitsASlowRouteAnswers503WithRetryAfterAndAFreedPermitServesAgain() throws Exception {
        SlowWork slowWork = new SlowWork("checks", 2);
        CountDownLatch running = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        RouteTable.Endpoint holding = slowWork.limit(exchange -> {
            running.countDown();
            try {
                return release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try {
            Future<Object> first = callers.submit(() -> holding.handle(null));
            Future<Object> second = callers.submit(() -> holding.handle(null));
            assertTrue(running.await(10, TimeUnit.SECONDS));
            RouteTable.Endpoint quick = slowWork.limit(exchange -> "done");
            ApiError busy = assertThrows(ApiError.class, () -> quick.handle(null));
            assertEquals(503, busy.status());
            assertEquals(Map.of("Retry-After", "5"), busy.headers());
            assertEquals("the scaler is already running 2 checks; retry in 5 seconds", busy.getMessage());
            release.countDown();
            assertEquals(true, first.get(10, TimeUnit.SECONDS));
            assertEquals(true, second.get(10, TimeUnit.SECONDS));
            assertEquals("done", quick.handle(null));
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aFailingRouteGivesItsPermitBack() throws Exception {
        SlowWork slowWork = new SlowWork("scales", 1);
        RouteTable.Endpoint failing = slowWork.limit(exchange -> {
            throw new ApiError(404, "no connector named x", null);
        });
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    404,
                    assertThrows(ApiError.class, () -> failing.handle(null)).status());
        }
        assertEquals("done", slowWork.limit(exchange -> "done").handle(null));
    }

    @Test
    void checksHoldingEveryPermitOfTheirsLeaveAScaleItsOwn() throws Exception {
        RouteTable routes = new RouteTable(new SlowWork("checks", 1), new SlowWork("scales", 1));
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService callers = Executors.newSingleThreadExecutor();
        try {
            Future<Object> check = callers.submit(() -> routes.check(exchange -> {
                        running.countDown();
                        try {
                            return release.await(10, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .handle(null));
            assertTrue(running.await(10, TimeUnit.SECONDS));
            assertEquals(
                    503,
                    assertThrows(
                                    ApiError.class,
                                    () -> routes.check(exchange -> "second check")
                                            .handle(null))
                            .status());
            assertEquals("scaled", routes.scale(exchange -> "scaled").handle(null));
            release.countDown();
            assertEquals(true, check.get(10, TimeUnit.SECONDS));
        } finally {
            callers.shutdownNow();
        }
    }
}
