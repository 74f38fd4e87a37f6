package dev.cabinet.table;

import java.util.function.Supplier;

import io.smallrye.mutiny.Context;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * What a store call is made for, so that its capacity is counted against it ({@link StoreCapacityMeter}): the event
 * type a projector applies, or another name for the engine's own work. It travels with the work as a Mutiny context
 * entry ({@link #of}) and is handed to the SDK's interceptors on the thread that makes the call, which is where they
 * run first ({@link #during}). Reads the API makes are named by the access pattern their request matches instead.
 */
public final class StoreCallSource {

    /** The Mutiny context entry that names the source of the store calls below it. */
    public static final String CONTEXT_KEY = "cabinet.store.source";

    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();

    private StoreCallSource() {
    }

    /** The work, its store calls counted against {@code source}. */
    public static <T> Uni<T> of(String source, Supplier<Uni<T>> work) {
        return Uni.createFrom().<T>emitter(emitter -> {
            Cancellable running = work.get().subscribe().with(Context.of(CONTEXT_KEY, source), emitter::complete,
                    emitter::fail);
            emitter.onTermination(running::cancel);
        });
    }

    /** The source the Mutiny context names, or the one current on this thread. */
    static String in(Context context) {
        return context.contains(CONTEXT_KEY) ? context.get(CONTEXT_KEY) : CURRENT.get();
    }

    /** Runs {@code call} (which makes a store call synchronously) with {@code source} current on this thread. */
    static <T> T during(String source, Supplier<T> call) {
        String before = CURRENT.get();
        CURRENT.set(source);
        try {
            return call.get();
        } finally {
            if (before == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(before);
            }
        }
    }

    /** The source current on this thread, for the interceptor: null when none was named. */
    static String current() {
        return CURRENT.get();
    }
}
