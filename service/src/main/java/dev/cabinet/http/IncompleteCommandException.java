package dev.cabinet.http;

/**
 * A command that had begun an effect of its own before it could send its event (an erasure destroys the person's data
 * key first) and then failed or ran out of time: the effect may be done, the event was not sent. Answered 503
 * {@code incomplete} with Retry-After, never "nothing was changed": the same request again completes it.
 */
public final class IncompleteCommandException extends RuntimeException {

    public IncompleteCommandException(String effect, String why) {
        super(effect + " may already be done, but the command's event was not sent (" + why
                + "): send the same request again to complete it");
    }
}
