package dev.cabinet.http;

import java.time.Duration;

/**
 * A request's deadline passed before what it waited for answered, and nothing had been sent to the log (a command
 * whose event had been sent fails with an unknown outcome instead): answered 503 store-unavailable with Retry-After.
 */
public final class DeadlinePassedException extends RuntimeException {

    private final Duration deadline;

    public DeadlinePassedException(Duration deadline) {
        super("the request did not complete within its deadline (cabinet.http.deadline, " + deadline.toMillis()
                + " ms)");
        this.deadline = deadline;
    }

    public Duration deadline() {
        return deadline;
    }
}
