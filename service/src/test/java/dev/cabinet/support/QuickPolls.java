package dev.cabinet.support;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.awaitility.pollinterval.IterativePollInterval;

import io.quarkus.test.junit.callback.QuarkusTestBeforeClassCallback;

/**
 * Awaitility's defaults for the end-to-end tests: look at once, then after 10, 20, 40 and 80 ms, then every 100 ms.
 * A projection takes tens of milliseconds here, and Awaitility's own defaults (a first look after 100 ms, then every
 * 100 ms) made each of the suite's hundreds of waits last a tenth of a second at least. Registered as a Quarkus test
 * callback, so that it sets the defaults of the Awaitility the test classes see (Quarkus loads them itself).
 */
public class QuickPolls implements QuarkusTestBeforeClassCallback {

    static final Duration FIRST = Duration.ofMillis(10);
    static final Duration LONGEST = Duration.ofMillis(100);

    @Override
    public void beforeClass(Class<?> testClass) {
        Awaitility.setDefaultPollDelay(Duration.ZERO);
        Awaitility.setDefaultPollInterval(new IterativePollInterval(QuickPolls::next, FIRST));
    }

    static Duration next(Duration previous) {
        Duration doubled = previous.multipliedBy(2);
        return doubled.compareTo(LONGEST) > 0 ? LONGEST : doubled;
    }
}
