package dev.cabinet.folder;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A file's metadata and {@code status} ({@link FileStatus}); a folder's list shows the same without {@code folderId},
 * {@code contentUrl} and {@code storedAt}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FileView(String id, String name, String folderId, long size, String contentType, String contentUrl,
        String uploadedAt, String ownerId, String status, String storedAt, @JsonIgnore String etag) implements Tagged {

    static FileView of(Map<String, AttributeValue> item) {
        return new FileView(Items.string(item, Attributes.FILE_ID), Items.string(item, Attributes.NAME),
                Items.string(item, Attributes.FOLDER_ID), Items.number(item, Attributes.SIZE),
                Items.string(item, Attributes.CONTENT_TYPE), Items.string(item, Attributes.CONTENT_URL),
                Items.string(item, Attributes.UPLOADED_AT), Items.string(item, Attributes.OWNER_ID),
                FileStatus.of(Items.string(item, Attributes.STATUS)), Items.string(item, Attributes.STORED_AT),
                ETags.of(item));
    }

    @JsonIgnore
    public boolean isStored() {
        return FileStatus.STORED.equals(status);
    }
}
