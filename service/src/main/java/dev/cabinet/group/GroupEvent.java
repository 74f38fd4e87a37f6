package dev.cabinet.group;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.shared.TextRules;

/** Facts about a group and its members, keyed by group id on {@value Topics#GROUPS}. */
public sealed interface GroupEvent extends DomainEvent permits GroupEvent.GroupCreated, GroupEvent.GroupRenamed,
        GroupEvent.MemberJoined, GroupEvent.MemberLeft, GroupEvent.MemberRoleChanged {

    EventType<GroupCreated> CREATED = EventType.of("cabinet.group.created.v1", GroupCreated.class, Topics.GROUPS);
    EventType<GroupRenamed> RENAMED = EventType.of("cabinet.group.renamed.v1", GroupRenamed.class, Topics.GROUPS);
    EventType<MemberJoined> MEMBER_JOINED = EventType.of("cabinet.group.member-joined.v1", MemberJoined.class,
            Topics.GROUPS);
    EventType<MemberLeft> MEMBER_LEFT = EventType.of("cabinet.group.member-left.v1", MemberLeft.class, Topics.GROUPS);
    EventType<MemberRoleChanged> MEMBER_ROLE_CHANGED = EventType.of("cabinet.group.member-role-changed.v1",
            MemberRoleChanged.class, Topics.GROUPS);

    String groupId();

    @Override
    default String aggregateId() {
        return groupId();
    }

    /** A user created a group and became its first admin. */
    record GroupCreated(String groupId, String name, String description, String creatorId, String createdAt)
            implements GroupEvent {
        public GroupCreated {
            EventFields.id("groupId", groupId);
            EventFields.text("name", name, TextRules.NAME_MAX);
            EventFields.optionalText("description", description, TextRules.DESCRIPTION_MAX);
            EventFields.id("creatorId", creatorId);
            EventFields.timestamp("createdAt", createdAt);
        }
    }

    /** An admin changed the group's name or description; a null field is left as it was. */
    record GroupRenamed(String groupId, String name, String description) implements GroupEvent {
        public GroupRenamed {
            EventFields.id("groupId", groupId);
            EventFields.optionalText("name", name, TextRules.NAME_MAX);
            EventFields.optionalText("description", description, TextRules.DESCRIPTION_MAX);
        }
    }

    /** A user joined the group (or an admin added them); joining again changes nothing. */
    record MemberJoined(String groupId, String userId, String role, String joinedAt) implements GroupEvent {
        public MemberJoined {
            EventFields.id("groupId", groupId);
            EventFields.id("userId", userId);
            EventFields.oneOf("role", role, GroupRole.ALL);
            EventFields.timestamp("joinedAt", joinedAt);
        }
    }

    /** A member left the group (or an admin removed them). */
    record MemberLeft(String groupId, String userId) implements GroupEvent {
        public MemberLeft {
            EventFields.id("groupId", groupId);
            EventFields.id("userId", userId);
        }
    }

    /** An admin changed a member's role. */
    record MemberRoleChanged(String groupId, String userId, String role) implements GroupEvent {
        public MemberRoleChanged {
            EventFields.id("groupId", groupId);
            EventFields.id("userId", userId);
            EventFields.oneOf("role", role, GroupRole.ALL);
        }
    }
}
