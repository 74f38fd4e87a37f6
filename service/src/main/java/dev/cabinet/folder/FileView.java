package dev.cabinet.folder;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A file's metadata; a folder's list shows the same without {@code folderId} and {@code contentUrl}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FileView(String id, String name, String folderId, long size, String contentType, String contentUrl,
        String uploadedAt, String ownerId, @JsonIgnore String etag) implements Tagged {

    static FileView of(Map<String, AttributeValue> item) {
        return new FileView(Items.string(item, Attributes.FILE_ID), Items.string(item, Attributes.NAME),
                Items.string(item, Attributes.FOLDER_ID), Items.number(item, Attributes.SIZE),
                Items.string(item, Attributes.CONTENT_TYPE), Items.string(item, Attributes.CONTENT_URL),
                Items.string(item, Attributes.UPLOADED_AT), Items.string(item, Attributes.OWNER_ID), ETags.of(item));
    }
}
