package dev.cabinet.group;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A membership as the group side shows it: who, with their current name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MemberView(String groupId, String userId, String userName, String role, String joinedAt) {

    static MemberView of(Map<String, AttributeValue> item) {
        return new MemberView(Items.string(item, Attributes.GROUP_ID), Items.string(item, Attributes.USER_ID),
                Items.string(item, Attributes.USER_NAME), Items.string(item, Attributes.ROLE),
                Items.string(item, Attributes.JOINED_AT));
    }
}
