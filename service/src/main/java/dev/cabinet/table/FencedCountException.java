package dev.cabinet.table;

/**
 * A counter change refused because a newer owner of its log partition has counted on the counter since this attempt's
 * batch was admitted, and the change's token is not pending: the partition moved on without this instance knowing
 * (a stall longer than the session), and its next owner counts the event (or has counted it). The attempt gives the
 * event up: it neither flags the marker nor releases the token.
 */
public class FencedCountException extends RuntimeException {

    public FencedCountException(CounterChange change) {
        super("the count of " + change.marker() + " on " + change.counter() + " is fenced: a newer owner of "
                + change.fence().topic() + "-" + change.fence().partition() + " than epoch " + change.fence().epoch()
                + " counted there", null, false, false);
    }
}
