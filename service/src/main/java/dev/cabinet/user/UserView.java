package dev.cabinet.user;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A user profile as the API shows it; {@code email} only to the user themself. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UserView(String id, String name, String email, String avatarUrl, String registeredAt, long postCount,
        @JsonIgnore String etag, @JsonIgnore String erasedAt) implements Tagged {

    static UserView of(Map<String, AttributeValue> item) {
        return new UserView(Items.string(item, Attributes.USER_ID), Items.string(item, Attributes.NAME),
                Items.string(item, Attributes.EMAIL), Items.string(item, Attributes.AVATAR_URL),
                Items.string(item, Attributes.REGISTERED_AT), Items.number(item, Attributes.POST_COUNT),
                ETags.of(item), Items.string(item, Attributes.ERASED_AT));
    }

    /** Whether the person was erased: the profile then answers 410, and takes no command. */
    @JsonIgnore
    public boolean erased() {
        return erasedAt != null;
    }

    /** The profile as others see it: without the email, and so with a tag of its own. */
    UserView withoutEmail() {
        return new UserView(id, name, null, avatarUrl, registeredAt, postCount, ETags.withoutOwnersFields(etag),
                erasedAt);
    }
}
