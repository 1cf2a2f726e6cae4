package export

import (
	"bufio"
	"encoding/csv"
	"os"
	"strconv"
)

// Row is one line of the monthly revenue export.
type Row struct {
	Month   string
	Orders  int
	Revenue int64
}

// WriteFile writes rows as CSV to path, replacing any existing file.
func WriteFile(path string, rows []Row) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	buf := bufio.NewWriterSize(f, 64*1024)
	defer f.Close()
	defer buf.Flush()

	w := csv.NewWriter(buf)
	if err := w.Write([]string{"month", "orders", "revenue_cents"}); err != nil {
		return err
	}
	for _, r := range rows {
		rec := []string{r.Month, strconv.Itoa(r.Orders), strconv.FormatInt(r.Revenue, 10)}
		if err := w.Write(rec); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
