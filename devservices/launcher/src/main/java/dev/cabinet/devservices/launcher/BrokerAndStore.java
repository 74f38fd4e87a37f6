package dev.cabinet.devservices.launcher;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A Kafka broker and a dynalite of a caller's own, started at once, for tests that run the packaged application as
 * processes. Each mostly waits for its own child to listen (about 5 and 2 s on two cores), so together they are ready
 * when the broker is.
 */
public record BrokerAndStore(KafkaBroker broker, Dynalite dynalite) implements AutoCloseable {

    public static BrokerAndStore start(LaunchSettings settings, Path stateDir, OrphanRegistry registry) {
        return start(settings, stateDir, registry, null);
    }

    /** The same, the broker with its authenticated listener too unless {@code secured} is null. */
    public static BrokerAndStore start(LaunchSettings settings, Path stateDir, OrphanRegistry registry,
            KafkaBroker.Secured secured) {
        CompletableFuture<Dynalite> dynaliteStart = CompletableFuture.supplyAsync(
                () -> Dynalite.start(settings, stateDir, registry));
        KafkaBroker broker;
        try {
            broker = KafkaBroker.start(settings, stateDir, registry, secured);
        } catch (RuntimeException e) {
            dynaliteStart.thenAccept(Dynalite::close); // not left running when the broker could not start
            throw e;
        }
        try {
            return new BrokerAndStore(broker, dynaliteStart.join());
        } catch (CompletionException e) {
            broker.close();
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    @Override
    public void close() {
        broker.close();
        dynalite.close();
    }
}
