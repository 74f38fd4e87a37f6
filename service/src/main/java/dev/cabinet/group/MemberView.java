package dev.cabinet.group;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A membership as the group side shows it: who, with their current name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemberView(String groupId, String userId, String userName, String role, String joinedAt) {

    static MemberView of(Map<String, AttributeValue> item) {
        return new MemberView(Items.string(item, "groupId"), Items.string(item, "userId"), Items.string(item, "userName"),
                Items.string(item, "role"), Items.string(item, "joinedAt"));
    }
}
