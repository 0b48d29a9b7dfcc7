package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BoundedTextTest {

    @Test
    void aShortTextIsKeptALongOneIsCutWithItsLength() {
        assertThat(BoundedText.cut("abc", 40)).isEqualTo("abc");
        assertThat(BoundedText.cut("x".repeat(40), 40)).isEqualTo("x".repeat(40));
        String cut = BoundedText.cut("x".repeat(5000), 40);
        assertThat(cut).isEqualTo("x".repeat(21) + "… (5000 characters)").hasSize(40);
    }

    @Test
    void aSurrogatePairIsNeverSplit() {
        // 😀 is U+1F600, two UTF-16 code units; the cut would fall between them
        String text = "x".repeat(21) + "😀".repeat(100);
        String cut = BoundedText.cut(text, 40);
        assertThat(cut).isEqualTo("x".repeat(21) + "… (221 characters)").hasSize(39);
        assertThat(BoundedText.cut("x".repeat(20) + "😀".repeat(100), 40)).isEqualTo("x".repeat(20) + "😀… (220 characters)");
        assertThat(BoundedText.prefix("ab😀", 3)).isEqualTo("ab");
        assertThat(BoundedText.prefix("ab😀", 4)).isEqualTo("ab😀");
        assertThatThrownBy(() -> BoundedText.cut("x", 10)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBadInputMessageIsBounded() {
        BadInputException e = new BadInputException("f.csv", 3, "c".repeat(5000), "r".repeat(100_000));
        assertThat(e.getMessage().length()).isLessThan(BadInputException.MAX_REASON_CHARS + 500);
        assertThat(e.reason()).endsWith("… (100000 characters)");
        assertThat(e.column()).endsWith("… (5000 characters)").hasSizeLessThanOrEqualTo(BadInputException.MAX_NAME_CHARS);
    }
}
