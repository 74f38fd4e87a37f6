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
        @JsonIgnore String etag) implements Tagged {

    static UserView of(Map<String, AttributeValue> item) {
        return new UserView(Items.string(item, Attributes.USER_ID), Items.string(item, Attributes.NAME),
                Items.string(item, Attributes.EMAIL), Items.string(item, Attributes.AVATAR_URL),
                Items.string(item, Attributes.REGISTERED_AT), Items.number(item, Attributes.POST_COUNT),
                ETags.of(item));
    }

    UserView withoutEmail() {
        return new UserView(id, name, null, avatarUrl, registeredAt, postCount, etag);
    }
}
