package dev.cabinet.folder;

import java.util.Map;

import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A subfolder as its parent lists it. */
public record SubfolderView(String id, String name) {

    static SubfolderView of(Map<String, AttributeValue> item) {
        return new SubfolderView(Items.string(item, Attributes.FOLDER_ID), Items.string(item, Attributes.NAME));
    }
}
