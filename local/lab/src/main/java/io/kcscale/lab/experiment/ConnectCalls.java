package io.kcscale.lab.experiment;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.poll.Poll;

/**
 * Calls to Connect's REST API, retried until a deadline while Connect is busy rebalancing: it answers
 * 409 then, or 500 "a rebalance is expected" (which the client does not retry). Any other 4xx is final.
 */
final class ConnectCalls {

    private static final Duration DEADLINE = Duration.ofSeconds(120);
    private static final Duration RETRY = Duration.ofMillis(250);

    private final ConnectRestClient connect;

    ConnectCalls(ConnectRestClient connect) {
        this.connect = connect;
    }

    /** The client itself, for reads a poll retries anyway. */
    ConnectRestClient client() {
        return connect;
    }

    <T> T call(String what, Supplier<T> request) {
        return Poll.until("Connect to " + what, DEADLINE, RETRY, () -> {
            try {
                return Optional.of(request.get());
            } catch (ConnectRestException e) {
                if (e.status() >= 400 && e.status() < 500 && e.status() != 409) {
                    throw new Poll.Abort(e.getMessage());
                }
                throw e;
            }
        });
    }

    void call(String what, Runnable request) {
        call(what, () -> {
            request.run();
            return Boolean.TRUE;
        });
    }
}
