package dev.cabinet.table;

/**
 * Every attribute name items carry, once: the key plan declares item types with these, and features build and read
 * items with them, so that no attribute name is a string literal outside this class. Many names are shared by several
 * item types on purpose (a post's {@code postId} is the same attribute on its metadata, summary and comments).
 */
public final class Attributes {

    public static final String ADMIN_COUNT = "adminCount";
    public static final String ANCESTOR_IDS = "ancestorIds";
    public static final String APPLIED_AT = "appliedAt";
    public static final String APPLIED_OFFSET = "appliedOffset";
    public static final String AUTHOR_AVATAR = "authorAvatar";
    public static final String AUTHOR_ID = "authorId";
    public static final String AUTHOR_NAME = "authorName";
    public static final String AVATAR_URL = "avatarUrl";
    public static final String BODY = "body";
    public static final String COMMENT_COUNT = "commentCount";
    public static final String COMMENT_ID = "commentId";
    public static final String CONTENT_TYPE = "contentType";
    public static final String CONTENT_URL = "contentUrl";
    public static final String CPU = "cpu";
    public static final String CREATED_AT = "createdAt";
    public static final String CUSTOMER_ID = "customerId";
    public static final String DECIDED_AT = "decidedAt";
    public static final String DELETED_AT = "deletedAt";
    public static final String DESCRIPTION = "description";
    public static final String EMAIL = "email";
    public static final String EVENT_ID = "eventId";
    public static final String EVENT_TYPE = "eventType";
    public static final String FILE_ID = "fileId";
    public static final String FINGERPRINT = "fingerprint";
    public static final String FIRST_OFFSET = "firstOffset";
    public static final String FOLDER_ID = "folderId";
    /** On a membership, group side: the role before the latest role change, by which that change's redo counts. */
    public static final String FORMER_ROLE = "formerRole";
    public static final String GROUP_ID = "groupId";
    public static final String GROUP_NAME = "groupName";
    public static final String JOINED_AT = "joinedAt";
    /** On a membership, group side: the group's version that made it, by which a join's redo tells its own write. */
    public static final String JOIN_VERSION = "joinVersion";
    /** On a like (post, user): whether the user likes the post now; the item stays when they unlike it. */
    public static final String LIKED = "liked";
    public static final String BOOKMARKED = "bookmarked";
    public static final String LIKE_COUNT = "likeCount";
    /** On a like: its latest like was counted in the post's likeCount (cleared when it is unliked). */
    public static final String LIKE_COUNTED = "likeCounted";
    /** On a like: its latest unlike was taken off the post's likeCount (cleared when it is liked again). */
    public static final String UNLIKE_COUNTED = "unlikeCounted";
    public static final String LAST_PARKED_OFFSET = "lastParkedOffset";
    public static final String RECOVERED_BY = "recoveredBy";
    public static final String RECOVERING_UNTIL = "recoveringUntil";
    public static final String LOCATION = "location";
    public static final String MEMBER_COUNT = "memberCount";
    public static final String MEMORY = "memory";
    public static final String MOVED_FROM = "movedFrom";
    public static final String NAME = "name";
    public static final String OFFSET = "offset";
    public static final String ORDER_DATE = "orderDate";
    public static final String ORDER_ID = "orderId";
    public static final String OWNER_EPOCH = "ownerEpoch";
    public static final String OWNER_GENERATION = "ownerGeneration";
    public static final String OWNER_RAISED_AT = "ownerRaisedAt";
    public static final String OWNER_ID = "ownerId";
    public static final String PARENT_ID = "parentId";
    public static final String PARKED_AT = "parkedAt";
    public static final String PARKED_KEY_ID = "parkedKeyId";
    public static final String PARTITION = "partition";
    public static final String PATH = "path";
    /** On a person's profile, data key and every copy of their profile: when they were erased. */
    public static final String ERASED_AT = "erasedAt";
    public static final String SUBJECT_ID = "subjectId";
    /** On an item that copies a person's profile: when that person was erased (see DeclaredCopy). */
    public static final String SUBJECT_ERASED_AT = "subjectErasedAt";
    public static final String WRAPPED_KEY = "wrappedKey";
    public static final String WRAPPING = "wrapping";
    /** The KMS key's ARN a data key was wrapped under (KMS answers it whatever name it was asked by). */
    public static final String WRAPPED_UNDER = "wrappedUnder";
    /** On a stream's root (or tombstone): the steps of the event it last recorded, for a redo (PlanExecutor). */
    public static final String PENDING_STEPS = "pendingSteps";
    public static final String PLACED_AT = "placedAt";
    public static final String POSITION = "position";
    public static final String POST_COUNT = "postCount";
    public static final String POST_ID = "postId";
    public static final String PREVIOUS = "previous";
    public static final String PROFILE_VERSION = "profileVersion";
    public static final String PUBLISHED_AT = "publishedAt";
    public static final String REASON = "reason";
    public static final String RECORD_KEY = "recordKey";
    /** On a stream's root (or tombstone): the ids of its latest events, so a duplicate record is seen as applied. */
    public static final String RECENT_EVENT_IDS = "recentEventIds";
    public static final String REGISTERED_AT = "registeredAt";
    public static final String REQUESTS = "requests";
    public static final String RESERVED_UNTIL = "reservedUntil";
    public static final String RESOURCE_ID = "resourceId";
    public static final String REV = "rev";
    public static final String ROLE = "role";
    /** A key placeholder only (the write shard of a sharded entry), never stored as an attribute. */
    public static final String SHARD = "shard";
    public static final String SIZE = "size";
    public static final String STATE = "state";
    public static final String STATUS = "status";
    public static final String STORED_AT = "storedAt";
    public static final String SUBJECT = "subject";
    public static final String SWITCHED_AT = "switchedAt";
    public static final String SWITCHED_BY = "switchedBy";
    public static final String TABLE = "table";
    public static final String TEXT = "text";
    public static final String TIMESTAMP = "timestamp";
    public static final String TITLE = "title";
    public static final String TOPIC = "topic";
    public static final String TOTAL = "total";
    public static final String UPLOADED_AT = "uploadedAt";
    public static final String USER_ID = "userId";
    public static final String USER_NAME = "userName";

    private Attributes() {
    }
}
