package dev.cabinet.deadletter;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.ObservesAsync;

import org.jboss.logging.Logger;

import dev.cabinet.projection.contract.UnknownEventTypeException;
import dev.cabinet.projection.execution.EventApplier;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.projection.ordering.PartitionsAssigned;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The end of a rolling upgrade: a projector that starts (or takes partitions over) retries every key that a projector
 * parked for an event type it did not know and that this one handles, as an operator's retry would. A key whose events
 * still fail stays parked with its new reason; one that keeps failing is left to the operator.
 */
@ApplicationScoped
class UpgradeResume {

    private static final Logger LOG = Logger.getLogger(UpgradeResume.class);
    private static final Duration STORE_WAIT = Duration.ofSeconds(30);

    private final ParkedKeys parkedKeys;
    private final ParkedKeyRecovery recovery;
    private final EventApplier applier;

    UpgradeResume(ParkedKeys parkedKeys, ParkedKeyRecovery recovery, EventApplier applier) {
        this.parkedKeys = parkedKeys;
        this.recovery = recovery;
        this.applier = applier;
    }

    /** Runs on a worker thread: CDI's asynchronous observers do. */
    void onAssignment(@ObservesAsync PartitionsAssigned assigned) {
        resume();
    }

    /** Retries the keys that wait for an event type this projector now handles; answers how many were released. */
    int resume() {
        List<String> due = resumable(parkedKeys.keys().await().atMost(STORE_WAIT), applier::handles);
        int released = 0;
        for (String parkedKeyId : due) {
            try {
                RecoveryResult result = recovery.retry(parkedKeyId, "upgrade");
                released++;
                LOG.infof("Parked key %s resumed after an upgrade: %d event(s) applied", parkedKeyId, result.applied());
            } catch (RuntimeException e) {
                LOG.warnf("Parked key %s still waits after an upgrade: %s", parkedKeyId, e.getMessage());
            }
        }
        return released;
    }

    /** The parked keys whose first event's type was unknown where it was parked and is handled now (pure). */
    static List<String> resumable(List<Map<String, AttributeValue>> keys, Predicate<String> handles) {
        return keys.stream()
                .filter(key -> Items.has(key, Attributes.REASON) && Items.has(key, Attributes.EVENT_TYPE)
                        && Items.string(key, Attributes.REASON).startsWith(UnknownEventTypeException.REASON)
                        && handles.test(Items.string(key, Attributes.EVENT_TYPE)))
                .map(key -> Items.string(key, Attributes.PARKED_KEY_ID))
                .toList();
    }
}
