package dev.cabinet.rebuild;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.http.Problems;
import dev.cabinet.table.ActiveTable;
import dev.cabinet.table.Items;
import dev.cabinet.table.OperatorStore;
import dev.cabinet.table.RetiredReadModel;
import dev.cabinet.table.TableComparison;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.shared.Timestamps;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Blue/green rebuilds: a candidate table filled by a projector of its own (replaying the log from the start with its
 * own consumer group) is verified against the live table item by item once it has caught up, and the cut-over points
 * every instance's reads at it by a compare-and-set on the home table's pointer. Blocking: operator requests run on
 * worker threads.
 */
@ApplicationScoped
class Rebuilds {

    private static final Logger LOG = Logger.getLogger(Rebuilds.class);
    private static final int LISTED_DIFFERENCES = 100;
    private static final Duration CATCH_UP_WAIT = Duration.ofSeconds(30);
    private static final Duration LOOK_AGAIN = Duration.ofMillis(500);
    /** How long a table's projector must have applied nothing before its read model may be removed. */
    static final Duration RETIRED = Duration.ofMinutes(1);

    private final RebuildProgress progress;
    private final TableComparison comparison;
    private final ActiveTable activeTable;
    private final OperatorStore store;
    private final RetiredReadModel retired;

    Rebuilds(RebuildProgress progress, TableComparison comparison, ActiveTable activeTable, OperatorStore store,
            RetiredReadModel retired) {
        this.progress = progress;
        this.comparison = comparison;
        this.activeTable = activeTable;
        this.store = store;
        this.retired = retired;
    }

    /** What a verification found; {@code equal} only if the candidate had caught up and no difference remained. */
    record Verification(String candidate, String active, boolean equal, long compared, long differenceCount,
            List<TableComparison.Difference> differences, String verifiedAt) {
    }

    /** Where reads go after a cut-over, and where they went before. */
    record CutOver(String active, String previous, String switchedAt) {
    }

    /** What removing a retired table's read model did: items looked at, deleted, and kept (not the read model's). */
    record Purged(String table, String active, long scanned, long deleted, long kept, String purgedAt) {
    }

    RebuildProgress.Status status(String candidate) {
        return progress.of(candidate);
    }

    /**
     * Compares the candidate with the live table once it has caught up. Both keep changing meanwhile, so each
     * difference is read again once the candidate has caught up again; only those that remain are reported.
     */
    Verification verify(String candidate) {
        String live = requireCaughtUp(candidate).active();
        if (live.equals(candidate)) {
            throw Problems.conflict("table " + candidate + " already answers reads");
        }
        TableComparison.Result first = comparison.compare(live, candidate, LISTED_DIFFERENCES);
        List<TableComparison.Difference> remaining = first.differences();
        if (!remaining.isEmpty()) {
            requireCaughtUp(candidate);
            remaining = remaining.stream().map(d -> comparison.recheck(live, candidate, d)).filter(Objects::nonNull)
                    .toList();
        }
        long count = first.differenceCount() - first.differences().size() + remaining.size();
        LOG.infof("Verified table '%s' against '%s': %d items compared, %d differences", candidate, live,
                first.compared(), count);
        return new Verification(candidate, live, count == 0, first.compared(), count, remaining,
                Timestamps.format(Instant.now()));
    }

    /** Verifies, then switches reads to the candidate; 409 if it has not caught up or differs. */
    CutOver cutOver(String candidate, String operator) {
        Verification verification = verify(candidate);
        if (!verification.equal()) {
            throw Problems.conflict("table " + candidate + " differs from " + verification.active() + " in "
                    + verification.differenceCount() + " items (POST .../verify lists them); reads stay on "
                    + verification.active());
        }
        String previous = verification.active();
        String now = Timestamps.format(Instant.now());
        Map<String, AttributeValue> pointer = new HashMap<>(ActiveTable.pointerKey().toAttributes());
        pointer.put(KeyPlan.TYPE, AttributeValue.fromS(KeyPlan.ACTIVE_READ_MODEL.name()));
        pointer.put(ActiveTable.ATTRIBUTE, AttributeValue.fromS(candidate));
        pointer.put("previous", AttributeValue.fromS(previous));
        pointer.put("switchedAt", AttributeValue.fromS(now));
        pointer.put("switchedBy", AttributeValue.fromS(operator));
        if (!store.switchPointer(pointer, previous)) {
            throw Problems.conflict("the table answering reads changed meanwhile; look again");
        }
        try {
            activeTable.lookUp().await().atMost(CATCH_UP_WAIT);
        } catch (RuntimeException e) {
            // The switch is made: reads move as each instance looks the pointer up again, this one included. Failing
            // now would tell the operator it was not, and a retry would answer that the table answers reads already.
            LOG.warnf("Cut-over made, but this instance could not look the pointer up again now (%s): it will", e);
        }
        LOG.infof("Cut-over by %s: reads go to table '%s' (was '%s')", operator, candidate, previous);
        return new CutOver(candidate, previous, now);
    }

    /**
     * Removes the read model from a table that answers no reads and that no projector wrote to for {@link #RETIRED}
     * (RetiredReadModel): erasures made since its projector was retired do not reach it.
     */
    Purged purge(String table, String operator, String projectionTarget) {
        String active = activeTable.lookUp().await().atMost(CATCH_UP_WAIT);
        if (table.equals(active)) {
            throw Problems.conflict("table " + table + " answers reads; its read model can go only once another does "
                    + "(cut over first)");
        }
        if (table.equals(projectionTarget)) {
            throw Problems.conflict("table " + table + " is this instance's projection target (a parked key's retry "
                    + "writes to it): give the operator Deployment the new target first");
        }
        Instant recently = Instant.now().minus(RETIRED);
        store.read(activeTable.home(), ActiveTable.pointerKey())
                .filter(pointer -> table.equals(Items.string(pointer, "previous")))
                .map(pointer -> Instant.parse(Items.string(pointer, "switchedAt"))).filter(at -> at.isAfter(recently))
                .ifPresent(at -> {
                    // Every instance looks the pointer up every few seconds, and keeps the old one while it cannot.
                    throw Problems.conflict("reads moved away from table " + table + " at " + Timestamps.format(at)
                            + ": an instance may still read it; try again a minute after the cut-over");
                });
        progress.lastApplied(table).filter(at -> at.isAfter(recently)).ifPresent(at -> {
            throw Problems.conflict("a projector applied events to table " + table + " at " + Timestamps.format(at)
                    + ": retire it first (design.md, blue/green step 5), then remove its read model");
        });
        RetiredReadModel.Purge purge = retired.purge(table);
        LOG.infof("Read model of table '%s' removed by %s: %d item(s) deleted, %d kept (reads go to '%s')", table,
                operator, purge.deleted(), purge.kept(), active);
        return new Purged(table, active, purge.scanned(), purge.deleted(), purge.kept(),
                Timestamps.format(Instant.now()));
    }

    private RebuildProgress.Status requireCaughtUp(String candidate) {
        long deadline = System.nanoTime() + CATCH_UP_WAIT.toNanos();
        RebuildProgress.Status status = progress.of(candidate);
        while (!status.caughtUp() && System.nanoTime() < deadline) {
            // Each look reads every partition's progress in both tables: look again after a pause, not at once.
            LockSupport.parkNanos(LOOK_AGAIN.toNanos());
            status = progress.of(candidate);
        }
        if (!status.caughtUp()) {
            throw Problems.conflict("table " + candidate + " has not caught up with " + status.active()
                    + " (GET /admin/rebuilds/" + candidate + " shows each partition)");
        }
        return status;
    }
}
