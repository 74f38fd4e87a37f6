package dev.cabinet.eventlog;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

import jakarta.enterprise.context.RequestScoped;

import com.github.f4b6a3.ulid.Ulid;

import dev.cabinet.shared.Ids;

/**
 * The ids one command request makes: the ids of the resources it creates ({@link #newId()}) and of the events it
 * appends ({@link #eventId()}). A request sent with an Idempotency-Key gets a seed that the key's reservation keeps, so
 * a retry after an unknown outcome makes the very same ids, in the same order, and its record (if both reach the log)
 * is the same event, not a second comment; without a seed every id is new.
 */
@RequestScoped
public class CommandIds {

    private Ulid seed;
    private int resources;
    private int events;
    private String firstResource;
    private final SendGate gate = new SendGate();

    /** Makes every later id of this request a function of {@code seed} (a ULID the idempotency reservation keeps). */
    public void seed(String seed) {
        this.seed = Ulid.from(seed);
    }

    /** A new resource id: a ULID, derived from the seed when there is one (its time part is the seed's). */
    public String newId() {
        String id = derived("resource-" + resources++);
        if (firstResource == null) {
            firstResource = id;
        }
        return id;
    }

    /**
     * The time the command happened: with a seed, the seed's own (when the key was first reserved), so that a retry
     * after an unknown outcome writes the very same event, times included (a comment's time is part of its key);
     * without one, now.
     */
    public Instant now() {
        return seed == null ? Instant.now() : Instant.ofEpochMilli(seed.getTime());
    }

    /** The id of the next event this request appends. */
    public String eventId() {
        return derived("event-" + events++);
    }

    /** Whether this request may still send its event, and which one it sent (see the request deadline). */
    public SendGate gate() {
        return gate;
    }

    /** The id of the first resource this request created, if any: what an answer about its outcome names. */
    public Optional<String> createdId() {
        return Optional.ofNullable(firstResource);
    }

    private String derived(String what) {
        if (seed == null) {
            return Ids.newId();
        }
        return new Ulid(seed.getTime(), Arrays.copyOf(sha256(seed + "/" + what), Ulid.RANDOM_BYTES)).toString();
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
