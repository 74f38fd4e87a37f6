package dev.cabinet.group;

import static dev.cabinet.eventlog.FieldSchema.Kind.ID;
import static dev.cabinet.eventlog.FieldSchema.Kind.ONE_OF;
import static dev.cabinet.eventlog.FieldSchema.Kind.OPTIONAL_TEXT;
import static dev.cabinet.eventlog.FieldSchema.Kind.TEXT;
import static dev.cabinet.eventlog.FieldSchema.Kind.TIMESTAMP;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventFields;
import dev.cabinet.eventlog.EventSchema;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.FieldSchema;
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

    @EventSchema(description = "A user created a group and became its first admin.", key = "groupId")
    record GroupCreated(@FieldSchema(ID) String groupId,
            @FieldSchema(value = TEXT, max = TextRules.NAME_MAX) String name,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.DESCRIPTION_MAX) String description,
            @FieldSchema(ID) String creatorId, @FieldSchema(TIMESTAMP) String createdAt) implements GroupEvent {
        /** The example the published schema shows. */
        public static final GroupCreated EXAMPLE = new GroupCreated("01JGROUP000000000000000001", "Engines",
                "Analytical ones", "ada", "2026-01-31T12:00:00.000Z");

        public GroupCreated {
            EventFields.id("groupId", groupId);
            EventFields.text("name", name, TextRules.NAME_MAX);
            EventFields.optionalText("description", description, TextRules.DESCRIPTION_MAX);
            EventFields.id("creatorId", creatorId);
            EventFields.timestamp("createdAt", createdAt);
        }
    }

    /** An admin changed the group's name or description; a null field is left as it was. */
    @EventSchema(
            description = "An admin changed the group's name or description; a null or absent field is left as it was.",
            key = "groupId")
    record GroupRenamed(@FieldSchema(ID) String groupId,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.NAME_MAX) String name,
            @FieldSchema(value = OPTIONAL_TEXT, max = TextRules.DESCRIPTION_MAX) String description)
            implements GroupEvent {
        /** The example the published schema shows. */
        public static final GroupRenamed EXAMPLE = new GroupRenamed("01JGROUP000000000000000001", "Difference engines",
                null);

        public GroupRenamed {
            EventFields.id("groupId", groupId);
            EventFields.optionalText("name", name, TextRules.NAME_MAX);
            EventFields.optionalText("description", description, TextRules.DESCRIPTION_MAX);
        }
    }

    @EventSchema(
            description = "A user joined the group (or an admin added them); joining again changes nothing.",
            key = "groupId")
    record MemberJoined(@FieldSchema(ID) String groupId, @FieldSchema(ID) String userId,
            @FieldSchema(value = ONE_OF, allowed = {GroupRole.ADMIN, GroupRole.MEMBER}) String role,
            @FieldSchema(TIMESTAMP) String joinedAt) implements GroupEvent {
        /** The example the published schema shows. */
        public static final MemberJoined EXAMPLE = new MemberJoined("01JGROUP000000000000000001", "grace", "member",
                "2026-01-31T12:00:00.000Z");

        public MemberJoined {
            EventFields.id("groupId", groupId);
            EventFields.id("userId", userId);
            EventFields.oneOf("role", role, GroupRole.ALL);
            EventFields.timestamp("joinedAt", joinedAt);
        }
    }

    @EventSchema(description = "A member left the group (or an admin removed them).", key = "groupId")
    record MemberLeft(@FieldSchema(ID) String groupId, @FieldSchema(ID) String userId) implements GroupEvent {
        /** The example the published schema shows. */
        public static final MemberLeft EXAMPLE = new MemberLeft("01JGROUP000000000000000001", "grace");

        public MemberLeft {
            EventFields.id("groupId", groupId);
            EventFields.id("userId", userId);
        }
    }

    @EventSchema(description = "An admin changed a member's role.", key = "groupId")
    record MemberRoleChanged(@FieldSchema(ID) String groupId, @FieldSchema(ID) String userId,
            @FieldSchema(value = ONE_OF, allowed = {GroupRole.ADMIN, GroupRole.MEMBER}) String role)
            implements GroupEvent {
        /** The example the published schema shows. */
        public static final MemberRoleChanged EXAMPLE = new MemberRoleChanged("01JGROUP000000000000000001", "grace",
                "admin");

        public MemberRoleChanged {
            EventFields.id("groupId", groupId);
            EventFields.id("userId", userId);
            EventFields.oneOf("role", role, GroupRole.ALL);
        }
    }
}
