package dev.cabinet.projection.execution;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import dev.cabinet.projection.WritePlan;
import dev.cabinet.projection.WritePlan.CopyCheck;
import dev.cabinet.projection.WritePlan.Count;
import dev.cabinet.projection.WritePlan.Delete;
import dev.cabinet.projection.WritePlan.DeleteCollection;
import dev.cabinet.projection.WritePlan.Derive;
import dev.cabinet.projection.WritePlan.DeriveChildren;
import dev.cabinet.projection.WritePlan.FanOut;
import dev.cabinet.projection.WritePlan.OrphanCheck;
import dev.cabinet.projection.WritePlan.Put;
import dev.cabinet.projection.WritePlan.RefreshCopies;
import dev.cabinet.projection.WritePlan.Step;
import dev.cabinet.projection.WritePlan.Write;
import dev.cabinet.table.DeclaredCopy;
import dev.cabinet.table.Index;
import dev.cabinet.table.ItemType;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.KeyQuery;
import dev.cabinet.table.SortKeyCondition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A plan's steps as one DynamoDB attribute and back: the root records the steps of the event it last took, so a
 * redelivery finishes them exactly as decided. The steps are attribute values (lists and maps), so the item writes'
 * values stay typed; they are stored as one binary attribute, their JSON deflated ({@link CompactValues}), because
 * the root pays for them in write units on every event and reads them only for a redo (a post's creation recorded them
 * in 1,099 bytes of lists and maps, its whole root then costing two write units; docs/capacity.md). The encoding is
 * the same for the same steps (a rebuild from the log writes equal items). A list recorded before that is read too.
 * A person's data ({@link KeyPlan#PERSONAL_ATTRIBUTES}: a comment's text, a member's name) is withheld from the record
 * ({@link ItemUpdate#withholding}): a redo takes it from the event decided again ({@link #filled}).
 */
public final class StepCodec {

    private static final String OP = "op";
    private static final String DERIVE_DOWN = "DeriveDown";
    private static final String WRITE_WITHHELD = "WriteWithheld";

    private StepCodec() {
    }

    public static AttributeValue encode(List<Step> steps) {
        return CompactValues.pack(AttributeValue.fromL(steps.stream().map(StepCodec::encode).toList()));
    }

    public static List<Step> decode(AttributeValue encoded) {
        AttributeValue steps = encoded != null && encoded.b() != null ? CompactValues.unpack(encoded) : encoded;
        return steps == null || !steps.hasL() ? List.of() : steps.l().stream().map(StepCodec::decodeStep).toList();
    }

    private static AttributeValue encode(Step step) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        // A derivation passed down whatever it finds has an op of its own: an instance that knows only Derive must
        // refuse it (the key is parked) rather than redo it without the cascade, leaving the subtree's paths stale.
        m.put(OP, s(step instanceof Derive d && d.passDown() ? DERIVE_DOWN : step.getClass().getSimpleName()));
        if (step instanceof Write w && (setsPersonalData(w.update()) || !w.update().withheld().isEmpty())) {
            // A person's data is not recorded: it would outlive their erasure on a quiet stream. A redo decides the
            // event again for it (PlanExecutor); an instance that knows only Write refuses the step (the key parks)
            // rather than send a write without its values.
            m.put(OP, s(WRITE_WITHHELD));
            m.put("update", w.update().withholding(KeyPlan.PERSONAL_ATTRIBUTES).encode());
        } else if (step instanceof Write w) {
            m.put("update", w.update().encode());
        } else if (step instanceof Delete d) {
            m.put("key", key(d.key()));
        } else if (step instanceof DeleteCollection d) {
            m.put("query", query(d.query()));
        } else if (step instanceof Count c) {
            m.put("counter", key(c.counter()));
            m.put("counterType", s(c.counterType().name()));
            m.put("attribute", s(c.attribute()));
            m.put("delta", n(c.delta()));
            m.put("marker", key(c.marker()));
            m.put("markerFlag", s(c.markerFlag()));
        } else if (step instanceof CopyCheck c) {
            m.put("source", key(c.source()));
            m.put("copiedVersion", n(c.copiedVersion()));
            m.put("holders", AttributeValue.fromL(c.holders().stream().map(StepCodec::key).toList()));
        } else if (step instanceof OrphanCheck o) {
            m.put("tombstone", key(o.tombstone()));
            m.put("orphans", AttributeValue.fromL(o.orphans().stream().map(StepCodec::key).toList()));
        } else if (step instanceof RefreshCopies r) {
            m.put("source", key(r.source()));
            if (r.whenBatchEnds()) {
                m.put("end", AttributeValue.fromBool(true));
            }
        } else if (step instanceof FanOut f) {
            m.put("query", query(f.query()));
            if (f.target() != null) {
                m.put("target", s(f.target().name()));
            }
            m.put("change", f.change().encode());
        } else if (step instanceof Derive d) {
            derivation(m, d.derivation(), d.key());
            // An instance that does not know the field makes the check on the event's path: the same, only later.
            if (d.derivedFrom() != null) {
                m.put("from", key(d.derivedFrom()));
            }
        } else if (step instanceof DeriveChildren d) {
            derivation(m, d.derivation(), d.key());
        } else if (step instanceof Put p) {
            if (KeyPlan.PERSONAL_ATTRIBUTES.stream().anyMatch(p.item()::containsKey)) {
                throw new IllegalStateException("a Put of " + Key.of(p.item()) + " holds a person's data, which a "
                        + "record for a redo must not: write it as an ItemUpdate, whose values can be withheld");
            }
            m.put("item", AttributeValue.fromM(p.item()));
        }
        return AttributeValue.fromM(m);
    }

    private static Step decodeStep(AttributeValue encoded) {
        Map<String, AttributeValue> m = encoded.m();
        String op = m.get(OP).s();
        return switch (op) {
            case "Write", WRITE_WITHHELD -> new Write(ItemUpdate.decode(m.get("update")));
            case "Delete" -> new Delete(key(m.get("key")));
            case "DeleteCollection" -> new DeleteCollection(query(m.get("query")));
            case "Count" -> new Count(key(m.get("counter")), itemType(m.get("counterType").s()),
                    m.get("attribute").s(), Long.parseLong(m.get("delta").n()), key(m.get("marker")),
                    m.get("markerFlag").s());
            case "CopyCheck" -> new CopyCheck(key(m.get("source")), Long.parseLong(m.get("copiedVersion").n()),
                    m.get("holders").l().stream().map(StepCodec::key).toList());
            case "OrphanCheck" -> new OrphanCheck(key(m.get("tombstone")),
                    m.get("orphans").l().stream().map(StepCodec::key).toList());
            case "RefreshCopies" -> new RefreshCopies(key(m.get("source")),
                    m.containsKey("end") && m.get("end").bool());
            case "FanOut" -> new FanOut(query(m.get("query")),
                    m.containsKey("target") ? itemType(m.get("target").s()) : null, ItemUpdate.decode(m.get("change")));
            case "Derive", DERIVE_DOWN -> new Derive(m.get("derivation").s(), key(m.get("key")), op.equals(DERIVE_DOWN),
                    m.containsKey("from") ? key(m.get("from")) : null);
            case "DeriveChildren" -> new DeriveChildren(m.get("derivation").s(), key(m.get("key")));
            case "Put" -> new Put(m.get("item").m());
            default -> throw new IllegalArgumentException("unknown recorded step " + op);
        };
    }

    /**
     * The recorded steps with the values withheld from them given back from the event decided again (pure; {@code
     * decideAgain} is called only if a value was withheld): each from a write of the same item in the new plan. A value
     * the new plan no longer writes (its person was erased meanwhile, say) is left out of the write; a new plan that
     * is a rejection fails the redo (the key parks) rather than write the items without their values.
     * <p>
     * The values decided again may have been read at another time than the record's (later, or earlier: an attempt
     * whose recording lost to another's). A write that holds a copy keeps the older of the two copy versions, so that
     * the values are never marked newer than the read they came from, and the copy's check refreshes them from the
     * source as it is (an erasure's placeholders included) whenever they might be older.
     */
    public static List<Step> filled(List<Step> recorded, Supplier<WritePlan> decideAgain) {
        if (recorded.stream().noneMatch(step -> step instanceof Write w && !w.update().withheld().isEmpty())) {
            return recorded;
        }
        WritePlan again = decideAgain.get();
        if (again.rejection().isPresent()) {
            // Nothing to give the values back from: failing parks the key, where writing without them would lose them.
            throw new IllegalStateException("the event, decided again for the values withheld from its recorded steps, "
                    + "is rejected: " + again.rejection().get());
        }
        List<ItemUpdate> decided = again.steps().stream()
                .filter(Write.class::isInstance).map(step -> ((Write) step).update()).toList();
        return recorded.stream().map(step -> step instanceof Write w && !w.update().withheld().isEmpty()
                ? new Write(filled(w.update(), decided.stream()
                        .filter(update -> update.key().equals(w.update().key())).toList()))
                : step).toList();
    }

    private static ItemUpdate filled(ItemUpdate recorded, List<ItemUpdate> decided) {
        ItemUpdate filled = recorded.filledFrom(attribute -> decided.stream()
                .map(update -> update.valueSet(attribute)).flatMap(Optional::stream).findFirst());
        for (DeclaredCopy copy : KeyPlan.COPIES) {
            Optional<AttributeValue> was = recorded.valueSet(copy.copyVersion());
            if (!copy.holder().matches(recorded.key()) || was.isEmpty() || was.get().n() == null) {
                continue;
            }
            long recordedVersion = Long.parseLong(was.get().n());
            long decidedVersion = decided.stream().map(update -> update.valueSet(copy.copyVersion()))
                    .flatMap(Optional::stream).filter(value -> value.n() != null)
                    .mapToLong(value -> Long.parseLong(value.n())).findFirst().orElse(-1L);
            if (decidedVersion < recordedVersion) {
                filled.set(copy.copyVersion(), decidedVersion);
            }
        }
        return filled;
    }

    /**
     * Whether the recorded steps hold a person's data in clear: recorded before it was withheld (an older release),
     * they are recorded again without it once redone ({@code PlanExecutor}).
     */
    public static boolean holdPersonalData(List<Step> recorded) {
        return recorded.stream().anyMatch(step -> step instanceof Write w && w.update().withheld().isEmpty()
                && setsPersonalData(w.update()));
    }

    /** Whether recording these steps withholds a value from them, for a redo to decide again. */
    static boolean withholdsFrom(List<Step> steps) {
        return steps.stream().anyMatch(step -> step instanceof Write w && setsPersonalData(w.update()));
    }

    /** Whether the write SETs a person's data ({@link KeyPlan#PERSONAL_ATTRIBUTES}) to a value it holds. */
    private static boolean setsPersonalData(ItemUpdate update) {
        return KeyPlan.PERSONAL_ATTRIBUTES.stream().anyMatch(attribute -> update.valueSet(attribute).isPresent());
    }

    private static ItemType itemType(String name) {
        return KeyPlan.ITEM_TYPES.stream().filter(type -> type.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no item type " + name + " in the key plan"));
    }

    private static AttributeValue key(Key key) {
        return AttributeValue.fromL(List.of(s(key.pk()), s(key.sk())));
    }

    private static Key key(AttributeValue encoded) {
        return new Key(encoded.l().get(0).s(), encoded.l().get(1).s());
    }

    private static AttributeValue query(KeyQuery query) {
        Map<String, AttributeValue> m = new LinkedHashMap<>();
        m.put("index", s(query.index().name()));
        m.put("partition", s(query.partition()));
        m.put("kind", s(query.sortKey().kind().name()));
        if (query.sortKey().from() != null) {
            m.put("from", s(query.sortKey().from()));
        }
        if (query.sortKey().to() != null) {
            m.put("to", s(query.sortKey().to()));
        }
        m.put("newestFirst", AttributeValue.fromBool(query.newestFirst()));
        return AttributeValue.fromM(m);
    }

    private static KeyQuery query(AttributeValue encoded) {
        Map<String, AttributeValue> m = encoded.m();
        SortKeyCondition condition = new SortKeyCondition(SortKeyCondition.Kind.valueOf(m.get("kind").s()),
                m.containsKey("from") ? m.get("from").s() : null, m.containsKey("to") ? m.get("to").s() : null);
        return KeyQuery.of(Index.valueOf(m.get("index").s()), m.get("partition").s(), condition,
                m.get("newestFirst").bool());
    }

    /** A derivation step's fields: the derivation's name and the item it starts from. */
    private static void derivation(Map<String, AttributeValue> m, String derivation, Key key) {
        m.put("derivation", s(derivation));
        m.put("key", key(key));
    }

    private static AttributeValue s(String text) {
        return AttributeValue.fromS(text);
    }

    private static AttributeValue n(long number) {
        return AttributeValue.fromN(Long.toString(number));
    }
}
