package dev.cabinet.http;

import java.util.Optional;

import dev.cabinet.table.Key;

/**
 * A feature's single resources whose commands honour {@code If-Match}: which request paths change which item. The
 * entity tag compared is the hash of that item ({@link ETags}), as the resource's GET sends it.
 */
public interface TaggedResource {

    /** The item behind the resource a command at {@code path} changes, if this feature owns that path. */
    Optional<Key> itemChangedBy(String path);
}
