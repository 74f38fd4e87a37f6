package dev.cabinet.folder;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.cabinet.shared.NotBlankWhenGiven;
import dev.cabinet.shared.TextRules;
import dev.cabinet.shared.Ids;

/** The body of {@code PATCH /folders/{id}}: a new {@code name}, or a new {@code parentId} (a move), one at a time. */
public record FolderChangeRequest(
        @Schema(example = "Old reports")
        @Size(min = 1, max = TextRules.NAME_MAX) @Pattern(regexp = TextRules.FOLDER_NAME)
        @NotBlankWhenGiven String name,
        @Pattern(regexp = Ids.PATTERN) String parentId) {

    @JsonIgnore
    @AssertTrue(message = "must give either name (a rename) or parentId (a move), not both")
    public boolean isOneChange() {
        return name != null ^ parentId != null;
    }
}
