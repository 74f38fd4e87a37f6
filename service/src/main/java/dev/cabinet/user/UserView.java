package dev.cabinet.user;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A user profile as the API shows it; {@code email} only to the user themself. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UserView(String id, String name, String email, String avatarUrl, String registeredAt, long postCount,
        @JsonIgnore String etag) implements Tagged {

    static UserView of(Map<String, AttributeValue> item) {
        return new UserView(Items.string(item, "userId"), Items.string(item, "name"), Items.string(item, "email"),
                Items.string(item, "avatarUrl"), Items.string(item, "registeredAt"), Items.number(item, "postCount"),
                ETags.of(item));
    }

    UserView withoutEmail() {
        return new UserView(id, name, null, avatarUrl, registeredAt, postCount, etag);
    }
}
