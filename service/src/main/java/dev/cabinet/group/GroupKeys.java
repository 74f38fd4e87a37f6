package dev.cabinet.group;

import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;

/** Keys of a group's items and of both sides of a membership. */
public final class GroupKeys {

    private GroupKeys() {
    }

    public static Key metadata(String groupId) {
        return KeyPlan.GROUP.key(groupId);
    }

    /** Membership, group side (pattern 8's items). */
    public static Key member(String groupId, String userId) {
        return KeyPlan.GROUP_MEMBER.key(groupId, userId);
    }

    /** Membership, user side (patterns 7 and 9). */
    public static Key membership(String userId, String groupId) {
        return KeyPlan.USER_GROUP.key(userId, groupId);
    }

    public static String groupPartition(String groupId) {
        return KeyPlan.GROUP.partition(groupId);
    }

    public static String memberPrefix() {
        return KeyPlan.GROUP_MEMBER.sk().prefix();
    }

    public static String userPartition(String userId) {
        return KeyPlan.USER_GROUP.partition(userId);
    }

    public static String membershipPrefix() {
        return KeyPlan.USER_GROUP.sk().prefix();
    }
}
