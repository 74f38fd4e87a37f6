package dev.cabinet.folder;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import dev.cabinet.http.ETags;
import dev.cabinet.http.Tagged;
import dev.cabinet.table.Items;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A file's metadata; a folder's list shows the same without {@code folderId} and {@code contentUrl}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FileView(String id, String name, String folderId, long size, String contentType, String contentUrl,
        String uploadedAt, String ownerId, @JsonIgnore String etag) implements Tagged {

    static FileView of(Map<String, AttributeValue> item) {
        return new FileView(Items.string(item, "fileId"), Items.string(item, "name"), Items.string(item, "folderId"),
                Items.number(item, "size"), Items.string(item, "contentType"), Items.string(item, "contentUrl"),
                Items.string(item, "uploadedAt"), Items.string(item, "ownerId"), ETags.of(item));
    }
}
