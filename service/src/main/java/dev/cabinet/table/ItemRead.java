package dev.cabinet.table;

import java.util.ArrayList;
import java.util.List;

/**
 * A GetItem of one item type's item, named by the type: the reading code builds the key with
 * {@link ItemType#key(Object...)} of the same type. {@code notes} say what else the plan wants known (e.g. that it
 * reads the home table).
 */
public record ItemRead(ItemType itemType, boolean consistentRead, List<String> notes) implements TableRead {

    public ItemRead {
        notes = List.copyOf(notes);
    }

    public static ItemRead of(ItemType itemType) {
        return new ItemRead(itemType, false, List.of());
    }

    /** The same read, strongly consistent. */
    public ItemRead consistent() {
        return new ItemRead(itemType, true, notes);
    }

    /** The same read with a note added. */
    public ItemRead note(String note) {
        List<String> more = new ArrayList<>(notes);
        more.add(note);
        return new ItemRead(itemType, consistentRead, more);
    }

    @Override
    public Index index() {
        return Index.TABLE;
    }

    @Override
    public List<ItemType> itemTypes() {
        return List.of(itemType);
    }

    @Override
    public String describe() {
        List<String> remarks = new ArrayList<>();
        if (consistentRead) {
            remarks.add("consistent read");
        }
        remarks.addAll(notes);
        return "GetItem " + itemType.pk() + " / " + itemType.sk()
                + (remarks.isEmpty() ? "" : " (" + String.join("; ", remarks) + ")");
    }
}
