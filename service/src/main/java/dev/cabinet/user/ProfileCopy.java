package dev.cabinet.user;

import java.util.Map;
import java.util.Optional;

import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The part of a user's profile that other items copy (name and avatar), with the user-stream version it is current
 * as of. Every copy stores that version in {@value #VERSION}, and a copy is only ever overwritten by a newer one, so
 * copies converge on the profile's latest state in whatever order renames and new items interleave.
 */
public record ProfileCopy(String userId, String name, String avatarUrl, long version) {

    /** The attribute in which an item records the profile version its copy is current as of. */
    public static final String VERSION = "profileVersion";

    /** The copy of a profile that does not exist (yet): no name, older than any registration. */
    static ProfileCopy absent(String userId) {
        return new ProfileCopy(userId, null, null, -1);
    }

    static ProfileCopy of(String userId, Optional<Map<String, AttributeValue>> profile) {
        return profile.filter(item -> Items.has(item, "registeredAt"))
                .map(item -> new ProfileCopy(userId, Items.string(item, "name"), Items.string(item, "avatarUrl"),
                        Items.number(item, dev.cabinet.table.KeyPlan.USER_STREAM.versionAttribute())))
                .orElse(absent(userId));
    }

    /** Sets the copy on a new item, with its version. */
    public ItemUpdate writeName(ItemUpdate update, String nameAttribute) {
        return update.set(nameAttribute, name).set(VERSION, version);
    }

    /** Sets name and avatar on a new item, with its version. */
    public ItemUpdate writeNameAndAvatar(ItemUpdate update, String nameAttribute, String avatarAttribute) {
        return writeName(update, nameAttribute).set(avatarAttribute, avatarUrl);
    }

    /**
     * An update that refreshes an existing copy: only if the item still exists (a rename never brings back a deleted
     * item) and holds an older copy.
     */
    public ItemUpdate refresh(ItemUpdate update) {
        return update.onlyIfExists().guardedBy(VERSION, version);
    }
}
