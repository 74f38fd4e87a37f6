package dev.cabinet.consistency;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.projection.observability.ProjectionProgress;
import io.smallrye.mutiny.Uni;

/** Waits, without blocking a thread, until the projector has applied a log position or a deadline passes. */
@ApplicationScoped
public class LogPositions {

    private static final Duration FIRST_LOOK = Duration.ofMillis(10);
    private static final Duration LONGEST_LOOK = Duration.ofMillis(200);

    private final ProjectionProgress progress;

    LogPositions(ProjectionProgress progress) {
        this.progress = progress;
    }

    /**
     * Emits true once the position is applied, false if it is not within {@code wait}; a look the store does not answer
     * does not make it wait longer (a frozen store is "not applied yet" once {@code wait} has passed).
     */
    public Uni<Boolean> awaitApplied(LogPosition position, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        return look(position, deadline, FIRST_LOOK)
                .ifNoItem().after(wait.compareTo(FIRST_LOOK) < 0 ? FIRST_LOOK : wait).recoverWithItem(false);
    }

    private Uni<Boolean> look(LogPosition position, long deadline, Duration pause) {
        return progress.isApplied(position).chain(applied -> {
            if (applied || System.nanoTime() >= deadline) {
                return Uni.createFrom().item(applied);
            }
            Duration next = pause.multipliedBy(2).compareTo(LONGEST_LOOK) > 0 ? LONGEST_LOOK : pause.multipliedBy(2);
            return Uni.createFrom().voidItem().onItem().delayIt().by(pause).chain(() -> look(position, deadline, next));
        });
    }
}
