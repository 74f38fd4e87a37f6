package dev.cabinet.deadletter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import dev.cabinet.http.ProblemException;
import dev.cabinet.http.Problems;
import dev.cabinet.projection.execution.EventApplier;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.projection.failure.UnappliableEventException;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import dev.cabinet.table.TableConfig;
import dev.cabinet.table.TableWriter;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An operator's retry or discard of a parked key. Both walk the key's parked events in log order and unpark the key
 * only if no event was parked behind it meanwhile (a conditional delete on {@code lastParkedOffset}); otherwise they go
 * on with the newcomers. Applying goes through the same idempotent projectors as the engine, so an event that the engine
 * also applies in the instant the key is released changes nothing the second time. Blocking: runs on a worker thread.
 */
@ApplicationScoped
class ParkedKeyRecovery {

    private static final Logger LOG = Logger.getLogger(ParkedKeyRecovery.class);
    private static final Duration STORE_WAIT = Duration.ofSeconds(30);
    private static final int TRANSIENT_ATTEMPTS = 5;
    private static final int MAX_ROUNDS = 20;
    /** Longer than one event's apply may take (its store calls wait {@link #STORE_WAIT} each); renewed per event. */
    private static final Duration LEASE = Duration.ofMinutes(3);

    private final ParkedKeys parkedKeys;
    private final ParkedRecords records;
    private final EventApplier applier;
    private final TableWriter store;
    private final Duration indexWait;

    ParkedKeyRecovery(ParkedKeys parkedKeys, ParkedRecords records, EventApplier applier, TableWriter store,
            TableConfig tables) {
        this.parkedKeys = parkedKeys;
        this.records = records;
        this.applier = applier;
        this.store = store;
        this.indexWait = tables.indexWait();
    }

    /** Applies every parked event of the key in order, then unparks it; stops at the first that still cannot apply. */
    RecoveryResult retry(String parkedKeyId, String operator) {
        return leased(parkedKeyId, holder -> retrying(parkedKeyId, operator, holder));
    }

    private RecoveryResult retrying(String parkedKeyId, String operator, String holder) {
        int applied = 0;
        List<String> appliedIds = new ArrayList<>();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Map<String, AttributeValue> key = parkedKey(parkedKeyId);
            List<Map<String, AttributeValue>> events = await(parkedKeys.events(parkedKeyId));
            List<ConsumerRecord<String, byte[]>> parked = recordsOf(events);
            for (int i = 0; i < parked.size(); i++) {
                ConsumerRecord<String, byte[]> record = parked.get(i);
                String eventId = Items.string(events.get(i), "eventId");
                renew(parkedKeyId, holder);
                await(parkedKeys.clearOutcome(eventId));
                try {
                    await(applier.apply(record, TRANSIENT_ATTEMPTS));
                } catch (UnappliableEventException e) {
                    await(parkedKeys.stillFails(parkedKeyId, record.offset(), e.reason()));
                    await(parkedKeys.markParked(record, e.reason()));
                    LOG.warnf("Retry of parked key %s by %s: %s-%d@%d still fails: %s", parkedKeyId, operator,
                            record.topic(), record.partition(), record.offset(), e.reason());
                    throw Problems.conflict("the event at " + record.topic() + "-" + record.partition() + "@"
                            + record.offset()
                            + " still cannot be applied (" + applied + " applied before it): " + e.reason());
                } catch (RuntimeException e) {
                    // Not applied this time (the store, a timeout): the event still waits, and its outcome says so.
                    try {
                        await(parkedKeys.markParked(record, Items.string(events.get(i), Attributes.REASON)));
                    } catch (RuntimeException alsoFailed) {
                        e.addSuppressed(alsoFailed);
                    }
                    throw e;
                }
                // Its position reads as applied once released: as the engine does, only once index reads show its
                // writes, so that a Consistency-Token naming it finds them in a GSI's list too. An entry unseen for
                // cabinet.table.index-wait is given up (logged), as the engine gives it up: the wait outlasts that.
                store.indexesShowWrites().await().atMost(indexWait.plus(STORE_WAIT));
                await(parkedKeys.release(parkedKeyId, record.topic(), record.partition(), record.offset()));
                appliedIds.add(eventId);
                applied++;
            }
            if (await(parkedKeys.unpark(parkedKeyId, Items.number(key, Attributes.LAST_PARKED_OFFSET)))) {
                // The projector marks an event parked before it parks it behind the key, and the unpark succeeds only
                // past that: a mark it wrote after this walk cleared it (the walk read the event first) goes now.
                for (String eventId : appliedIds) {
                    await(parkedKeys.clearOutcome(eventId));
                }
                LOG.infof("Parked key %s retried by %s: %d event(s) applied, key released", parkedKeyId, operator,
                        applied);
                return new RecoveryResult(parkedKeyId, "released", applied, 0);
            }
        }
        throw Problems.conflict("events keep being parked behind key " + parkedKeyId + "; try again");
    }

    /**
     * Each parked event's record, read from the partition the event names, in the events' order. A key's events are
     * on one partition; a key an earlier release parked for a record another producer put on another partition holds
     * that record and its key's own events, from two (a misplaced record parks a key of its own now:
     * {@link dev.cabinet.projection.ordering.LogKey#misplaced}).
     */
    private List<ConsumerRecord<String, byte[]>> recordsOf(List<Map<String, AttributeValue>> events) {
        Map<TopicPartition, List<Long>> offsets = new LinkedHashMap<>();
        for (Map<String, AttributeValue> event : events) {
            offsets.computeIfAbsent(partitionOf(event), partition -> new ArrayList<>())
                    .add(Items.number(event, Attributes.OFFSET));
        }
        Map<TopicPartition, Map<Long, ConsumerRecord<String, byte[]>>> read = new HashMap<>();
        offsets.forEach((partition, wanted) -> read.put(partition, records.read(partition.topic(),
                partition.partition(), wanted).stream().collect(Collectors.toMap(ConsumerRecord::offset,
                        record -> record))));
        return events.stream()
                .map(event -> read.get(partitionOf(event)).get(Items.number(event, Attributes.OFFSET)))
                .toList();
    }

    private static TopicPartition partitionOf(Map<String, AttributeValue> event) {
        return new TopicPartition(Items.string(event, Attributes.TOPIC), (int) Items.number(event,
                Attributes.PARTITION));
    }

    /**
     * Discards the key's parked events, recording it in their commands' outcomes: all of them (the key is released), or
     * only the first, the one that failed (the others wait for a retry).
     */
    RecoveryResult discard(String parkedKeyId, boolean onlyFirst, String operator) {
        return leased(parkedKeyId, holder -> discarding(parkedKeyId, onlyFirst, operator, holder));
    }

    private RecoveryResult discarding(String parkedKeyId, boolean onlyFirst, String operator, String holder) {
        String reason = "discarded by operator " + operator;
        int discarded = 0;
        List<String> discardedIds = new ArrayList<>();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Map<String, AttributeValue> key = parkedKey(parkedKeyId);
            List<Map<String, AttributeValue>> events = await(parkedKeys.events(parkedKeyId));
            List<Map<String, AttributeValue>> discarding = onlyFirst ? events.subList(0, Math.min(1, events.size()))
                    : events;
            for (Map<String, AttributeValue> event : discarding) {
                renew(parkedKeyId, holder);
                await(parkedKeys.discardOutcome(Items.string(event, Attributes.EVENT_ID), reason));
                await(parkedKeys.release(parkedKeyId, Items.string(event, Attributes.TOPIC),
                        (int) Items.number(event, Attributes.PARTITION), Items.number(event, Attributes.OFFSET)));
                discardedIds.add(Items.string(event, Attributes.EVENT_ID));
                discarded++;
            }
            boolean othersWait = events.size() > discarding.size();
            if (!othersWait
                    && await(parkedKeys.unpark(parkedKeyId, Items.number(key, Attributes.LAST_PARKED_OFFSET)))) {
                // A parked mark the projector wrote after this walk's discard found none (as in a retry) says so now.
                for (String eventId : discardedIds) {
                    await(parkedKeys.discardOutcome(eventId, reason));
                }
                LOG.infof("Parked key %s: %d event(s) discarded by %s, key released", parkedKeyId, discarded, operator);
                return new RecoveryResult(parkedKeyId, "released", 0, discarded);
            }
            if (onlyFirst) {
                LOG.infof("Parked key %s: its first event discarded by %s; the others wait for a retry", parkedKeyId,
                        operator);
                return new RecoveryResult(parkedKeyId, "parked", 0, discarded);
            }
        }
        throw Problems.conflict("events keep being parked behind key " + parkedKeyId + "; try again");
    }

    /**
     * Runs a retry or discard under the key's lease, so that no other (an operator's, or each new projector's after an
     * upgrade) walks the same events at the same time; the lease ends with the walk, or with the key's unpark. A walk
     * that failed other than with an answer of its own (an apply that timed out may still be writing) leaves the lease
     * to expire.
     */
    private RecoveryResult leased(String parkedKeyId, Function<String, RecoveryResult> walk) {
        String holder = Ids.newId();
        if (!await(parkedKeys.lease(parkedKeyId, holder, LEASE))) {
            parkedKey(parkedKeyId);   // 404 when it is gone
            throw Problems.conflict("a retry or discard of parked key " + parkedKeyId + " is under way (or one "
                    + "failed less than " + LEASE.toMinutes() + " minutes ago, and may still be applying); try again "
                    + "once it has ended");
        }
        RecoveryResult result;
        try {
            result = walk.apply(holder);
        } catch (ProblemException e) {
            endLease(parkedKeyId, holder);   // an answer of the walk's own: nothing of it still runs
            throw e;
        }
        // Any other failure (a timeout, the store) may leave an apply running: the lease then expires by itself.
        endLease(parkedKeyId, holder);
        return result;
    }

    private void endLease(String parkedKeyId, String holder) {
        try {
            await(parkedKeys.endLease(parkedKeyId, holder));
        } catch (RuntimeException e) {
            LOG.warnf("The lease on parked key %s was not ended (%s): it expires within %s", parkedKeyId,
                    e.toString(), LEASE);
        }
    }

    /** Extends the lease before each event; one lost (expired, and taken) stops the walk before it applies more. */
    private void renew(String parkedKeyId, String holder) {
        if (!await(parkedKeys.renew(parkedKeyId, holder, LEASE))) {
            throw Problems.conflict("parked key " + parkedKeyId + " was taken over by another retry or discard, or "
                    + "released, while this one ran");
        }
    }

    private Map<String, AttributeValue> parkedKey(String parkedKeyId) {
        return await(parkedKeys.key(parkedKeyId))
                .orElseThrow(() -> Problems.notFound("parked key", parkedKeyId));
    }

    private static <T> T await(io.smallrye.mutiny.Uni<T> call) {
        return call.await().atMost(STORE_WAIT);
    }
}
