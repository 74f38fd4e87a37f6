package dev.cabinet.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.erasure.PersonalFields;
import dev.cabinet.post.PostEvent.PostCreated;

/**
 * What sealing a person's data costs in CPU per event (docs/benchmarks.md, "Sealing"): writing a post's event with and
 * without sealing its title and body, and reading it back with and without opening them, on one thread, measured by
 * the thread's CPU time. Not part of {@code ./mvnw verify}; run it with
 * {@code ./mvnw -pl service test -Dtest=SealingBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * -Dcabinet.test.jvm-options=} (the last so that it runs with both of the JIT's tiers, as a deployed JVM does; the test
 * JVM has C1 only).
 */
class SealingBenchmark {

    private static final int WARM_UP = Integer.getInteger("cabinet.bench.sealing.warm-up", 50_000);
    private static final int EVENTS = Integer.getInteger("cabinet.bench.sealing.events", 200_000);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecretKey KEY = new SecretKeySpec(new byte[32], "AES");
    private static final PostCreated POST = new PostCreated("01JPOST0000000000000000001", "ada",
            "A title of about sixty characters, as most posts' titles are", "x".repeat(1_000),
            "2026-12-04T00:00:00.000Z");

    @Test
    void sealingAndOpeningAPostsTextCostsMicrosecondsPerEvent() throws Exception {
        assertFalse(ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:TieredStopAtLevel=1"),
                "C1 alone compiles code as no deployed JVM does: run with -Dcabinet.test.jvm-options=");
        byte[] clear = JSON.writeValueAsBytes(POST);
        byte[] sealed = JSON.writeValueAsBytes(PersonalFields.seal(JSON.valueToTree(POST), PostCreated.class, "ada",
                KEY));
        Map<String, Optional<SecretKey>> keys = Map.of("ada", Optional.of(KEY));
        assertEquals(JSON.readTree(clear), PersonalFields.reveal(JSON.readTree(sealed), PostCreated.class, keys));

        double write = cpuMicros(() -> bytes(POST));
        double writeSealed = cpuMicros(() -> bytes(PersonalFields.seal(JSON.valueToTree(POST), PostCreated.class,
                "ada", KEY)));
        double read = cpuMicros(() -> tree(clear));
        double readOpened = cpuMicros(() -> PersonalFields.reveal(tree(sealed), PostCreated.class, keys));
        System.out.printf("%nSealing, CPU per event (%,d events after %,d to warm up; title 60 and body 1,000 "
                + "characters):%n", EVENTS, WARM_UP);
        System.out.println("| step | clear | sealed | added |");
        System.out.println("|---|---:|---:|---:|");
        System.out.printf("| the command writes the event's data | %.1f µs | %.1f µs | %.1f µs |%n", write, writeSealed,
                writeSealed - write);
        System.out.printf("| the projector reads it | %.1f µs | %.1f µs | %.1f µs |%n", read, readOpened,
                readOpened - read);
        System.out.printf("bytes of the data: %d clear, %d sealed%n", clear.length, sealed.length);
    }

    /** The thread's CPU time per call, in microseconds, after a warm-up. */
    private static double cpuMicros(Supplier<Object> call) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Object sink = null;
        for (int i = 0; i < WARM_UP; i++) {
            sink = call.get();
        }
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < EVENTS; i++) {
            sink = call.get();
        }
        long spent = threads.getCurrentThreadCpuTime() - start;
        if (sink == null) {
            throw new AssertionError("nothing was made");
        }
        return spent / 1_000.0 / EVENTS;
    }

    private static byte[] bytes(Object data) {
        try {
            return JSON.writeValueAsBytes(data);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode tree(byte[] data) {
        try {
            return JSON.readTree(data);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
