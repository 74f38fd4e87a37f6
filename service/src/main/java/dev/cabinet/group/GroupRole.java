package dev.cabinet.group;

import java.util.Set;

/** The roles a member can have: admins rename the group and manage members. */
public final class GroupRole {

    public static final String ADMIN = "admin";
    public static final String MEMBER = "member";
    public static final Set<String> ALL = Set.of(ADMIN, MEMBER);
    /** The same set as a pattern, for request validation. */
    public static final String PATTERN = "admin|member";

    private GroupRole() {
    }
}
