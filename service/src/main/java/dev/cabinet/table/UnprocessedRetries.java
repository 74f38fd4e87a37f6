package dev.cabinet.table;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/**
 * How a batch call's unprocessed keys or items (what DynamoDB leaves over when a partition is throttled) are asked for
 * again: after a pause that doubles each round from 50 ms up to a second, with jitter, as AWS advises (resent at once,
 * they met the same throttling, and every request in flight kept the partition saturated); after the last round, a
 * throttling error, which the projector retries with its backoff and a request answers with 503 and Retry-After.
 */
final class UnprocessedRetries {

    /** Rounds for a request (about 0.75 s of pauses at most), within its deadline. */
    static final int FOR_REQUESTS = 4;
    /** Rounds for the projector (about 4.5 s of pauses at most) before its own retries take over. */
    static final int FOR_PROJECTOR = 8;

    private static final Duration FIRST = Duration.ofMillis(50);
    private static final Duration LONGEST = Duration.ofSeconds(1);

    private UnprocessedRetries() {
    }

    /** {@code again} after round {@code round}'s pause, or the throttling error once {@code rounds} were made. */
    static <T> Uni<T> after(int round, int rounds, String what, Supplier<Uni<T>> again) {
        if (round >= rounds) {
            return Uni.createFrom().failure(throttled(what, rounds));
        }
        return Uni.createFrom().voidItem().onItem().delayIt().by(pause(round)).chain(() -> again.get());
    }

    /** The pause before round {@code round} (0 for the first resend): up to its ceiling, at least half of it. */
    static Duration pause(int round) {
        long ceiling = Math.min(LONGEST.toMillis(), FIRST.toMillis() << Math.min(round, 20));
        return Duration.ofMillis(ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1));
    }

    private static ProvisionedThroughputExceededException throttled(String what, int rounds) {
        String message = "DynamoDB still left " + what + " unprocessed after " + rounds + " rounds (throttled)";
        return (ProvisionedThroughputExceededException) ProvisionedThroughputExceededException.builder()
                .message(message).statusCode(400)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("ProvisionedThroughputExceededException")
                        .errorMessage(message).serviceName("DynamoDb").build())
                .build();
    }
}
