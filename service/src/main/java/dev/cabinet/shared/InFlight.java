package dev.cabinet.shared;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.smallrye.mutiny.Uni;

/**
 * Work that has begun and not ended, counted and aged for two gauges ({@code <name>} and {@code <name>.oldest}, in
 * seconds): a piece of work whose end got lost shows as an age that only grows, where a timer would never record it.
 */
public final class InFlight {

    private final Map<Object, Long> started = new ConcurrentHashMap<>();

    /** {@code work}, counted from each subscription until it ends: an item, a failure or a cancellation. */
    public <T> Uni<T> track(Uni<T> work) {
        return Uni.createFrom().deferred(() -> {
            Object token = new Object();
            started.put(token, System.nanoTime());
            return work.onTermination().invoke(() -> started.remove(token));
        });
    }

    /** How many have begun and not ended. */
    public int count() {
        return started.size();
    }

    /** How long the oldest of them has been running, in seconds (0 when none is). */
    public double oldestSeconds() {
        long now = System.nanoTime();
        long oldest = started.values().stream().mapToLong(begun -> now - begun).max().orElse(0);
        return oldest / (double) TimeUnit.SECONDS.toNanos(1);
    }

    /** Registers the two gauges. */
    public InFlight register(MeterRegistry registry, String name, String description, Tags tags) {
        Gauge.builder(name, this, InFlight::count).description(description).tags(tags).register(registry);
        Gauge.builder(name + ".oldest", this, InFlight::oldestSeconds).description("how long the oldest of them has "
                + "been running").baseUnit("seconds").tags(tags).register(registry);
        return this;
    }
}
